import { daysBetween } from '../../../../libs/shared-kernel/src';
import type { BankMovement, MovementSide } from './bank-movement';
import { bankMovementMatchAmountMismatch } from './banking-errors';
import { judgeMatchSelection } from '../../ledger';

/** An open-item line as banking reads it to match a movement or rank candidates. */
export interface OpenLine {
  id: string;
  entryId: string;
  entryDate: string;
  memo: string;
  description: string | null;
  ledgerAccountId: string;
  side: MovementSide;
  amount: number;
  allocatedAmount: number;
  isOpenItem: boolean;
  status: string;
  bookId: string | null;
  partnerId: string | null;
  partnerTaxId: string | null;
}

export const openAmount = (line: OpenLine) => line.amount - line.allocatedAmount;

/**
 * D66 match: the selected lines must be one open-item account's live lines of one Book (the
 * ledger's match codes), in the Book the entry is posted to, and their open total on the
 * movement's side (net of lines on the other side) must cover the movement amount (D78: at least
 * it; a foreign-currency movement's `amount` is its functional one). Answers the account and the partner the new open-item line takes (the selection's one
 * partner, else none).
 */
export function judgeMatch(
  movement: BankMovement,
  lineIds: string[],
  lines: OpenLine[],
  bookId: string | null,
  amount = movement.amount,
): { accountId: string; partnerId: string | null } {
  judgeMatchSelection(lineIds, lines, { bookId });
  const accounts = [...new Set(lines.map((l) => l.ledgerAccountId))];
  const covered = lines.reduce((sum, l) => sum + (l.side === movement.side ? openAmount(l) : -openAmount(l)), 0);
  if (covered < amount) throw bankMovementMatchAmountMismatch({ movementAmount: amount, openTotal: Math.max(covered, 0) });
  const partners = [...new Set(lines.map((l) => l.partnerId))];
  return { accountId: accounts[0], partnerId: partners.length === 1 ? partners[0] : null };
}

/** Why a line is a candidate, each criterion of D66 in its priority order (D78). */
export interface CandidateReasons {
  equalAmount: boolean;
  partnerTaxId: boolean;
  folioOrReference: boolean;
  daysApart: number;
}

export interface RankedCandidate {
  line: OpenLine;
  reasons: CandidateReasons;
}

/** RUTs printed in a text (`76.086.428-5`, `76086428-5`), as typed: canonicalised by the caller. */
export function rutsIn(text: string): string[] {
  return [...text.matchAll(/\b(\d{1,2}\.?\d{3}\.?\d{3}-[\dkK])\b/g)].map((m) => m[1]);
}

/** Tokens of at least three letters or digits (folios, references), upper-cased. */
export function tokensOf(text: string | null | undefined): Set<string> {
  return new Set((text ?? '').toUpperCase().match(/[A-Z0-9][A-Z0-9-]{2,}/g) ?? []);
}

/**
 * D66 ranking, in priority order: equal open amount, partner RUT (the movement's counterparty or a
 * RUT in its description), an invoice folio or the reference found in the description, then date
 * proximity; ties by entry date and line id, so the order is total.
 */
export function rankCandidates(
  movement: BankMovement,
  lines: OpenLine[],
  facts: { taxIds: Set<string>; folioLineIds: Set<string> },
): RankedCandidate[] {
  const movementTokens = new Set([...tokensOf(movement.description), ...tokensOf(movement.reference)]);
  const ranked = lines.map((line) => {
    const lineTokens = new Set([...tokensOf(line.description), ...tokensOf(line.memo)]);
    const referenceShared = [...movementTokens].some((t) => /\d/.test(t) && lineTokens.has(t));
    return {
      line,
      reasons: {
        equalAmount: openAmount(line) === movement.amount,
        partnerTaxId: line.partnerTaxId !== null && facts.taxIds.has(line.partnerTaxId),
        folioOrReference: facts.folioLineIds.has(line.id) || referenceShared,
        // Proximity either way: a line dated after the movement is as far as one before it.
        daysApart: Math.abs(daysBetween(line.entryDate, movement.movementDate)),
      },
    };
  });
  const flag = (b: boolean) => (b ? 0 : 1);
  return ranked.sort(
    (a, b) =>
      flag(a.reasons.equalAmount) - flag(b.reasons.equalAmount) ||
      flag(a.reasons.partnerTaxId) - flag(b.reasons.partnerTaxId) ||
      flag(a.reasons.folioOrReference) - flag(b.reasons.folioOrReference) ||
      a.reasons.daysApart - b.reasons.daysApart ||
      (a.line.entryDate < b.line.entryDate ? -1 : a.line.entryDate > b.line.entryDate ? 1 : 0) ||
      (a.line.id < b.line.id ? -1 : a.line.id > b.line.id ? 1 : 0),
  );
}
