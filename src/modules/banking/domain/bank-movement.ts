import { bankMovementAlreadyBooked, bankMovementBooked } from './banking-errors';

export const MOVEMENT_SIDES = ['debit', 'credit'] as const;
export type MovementSide = (typeof MOVEMENT_SIDES)[number];
export const MOVEMENT_SOURCES = ['manual', 'import', 'feed'] as const;
export type MovementSource = (typeof MOVEMENT_SOURCES)[number];

/**
 * D65: a line of a bank or card statement. `amount` is positive; `side` is the side on the mapped
 * ledger account (`debit`: money in for a bank, a payment to a card). `ledgerEntryId` is the entry
 * that booked it (booking or match), null while unreconciled.
 */
export interface BankMovement {
  entityId: string;
  id: string;
  bankAccountId: string;
  movementDate: string;
  description: string;
  amount: number;
  side: MovementSide;
  reference: string | null;
  counterpartyName: string | null;
  counterpartyTaxId: string | null;
  source: MovementSource;
  providerMovementId: string | null;
  ledgerEntryId: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export function newManualMovement(
  input: Pick<BankMovement, 'entityId' | 'id' | 'bankAccountId' | 'movementDate' | 'description' | 'amount' | 'side' | 'reference'>,
  now: Date,
): BankMovement {
  return {
    ...input,
    description: input.description.trim(),
    reference: input.reference?.trim() || null,
    counterpartyName: null,
    counterpartyTaxId: null,
    source: 'manual',
    providerMovementId: null,
    ledgerEntryId: null,
    createdAt: now,
    updatedAt: now,
  };
}

/** Deleting is for unbooked movements only (D65, D78). */
export function assertDeletable(movement: BankMovement): void {
  if (movement.ledgerEntryId !== null) throw bankMovementBooked({ movementId: movement.id, ledgerEntryId: movement.ledgerEntryId });
}

/** A movement is booked (or matched) once (D66). */
export function assertBookable(movement: BankMovement): void {
  if (movement.ledgerEntryId !== null) throw bankMovementAlreadyBooked({ movementId: movement.id, ledgerEntryId: movement.ledgerEntryId });
}

/**
 * The bank side of a booking: the mapped ledger account takes the movement's side, the counter
 * account (or the open-item account of a match) the other side, both for the movement amount.
 */
export function counterSide(side: MovementSide): MovementSide {
  return side === 'debit' ? 'credit' : 'debit';
}

/** A movement in another currency than the Entity's: its amount converted at the movement date's rate (D7). */
export interface MovementConversion {
  currency: string;
  rate: string;
  /** The movement amount in functional minor units. */
  functionalAmount: number;
}

/**
 * The two lines of a booking or a match: the mapped ledger account on the movement's side, the
 * other account on the other side, each for the movement amount (functional minor units; a
 * foreign-currency movement carries the transaction trio on both lines).
 */
export function bookingLines(
  movement: BankMovement,
  bankLedgerAccountId: string,
  other: { ledgerAccountId: string; id?: string; partnerId?: string | null; dimensionValueIds?: string[] },
  conversion: MovementConversion | null,
) {
  const amounts = conversion
    ? { amount: conversion.functionalAmount, transactionCurrency: conversion.currency, transactionAmount: movement.amount, exchangeRate: conversion.rate }
    : { amount: movement.amount };
  return [
    { side: movement.side, ledgerAccountId: bankLedgerAccountId, description: movement.description, ...amounts },
    { ...other, side: counterSide(movement.side), description: movement.description, ...amounts },
  ];
}
