import { Injectable } from '@nestjs/common';
import { LedgerFigures } from '../../../ledger';
import type { GroupAccountBalance } from '../../../ledger';
import { groupPartnerFactsSql, partnerFactsSql } from '../../../partners';

/** A member of the group as read: its Entity, its Book and its taxId. */
export interface MemberScope {
  entityId: string;
  bookId: string | null;
  taxId: string;
}

/**
 * D91 items 1 and 2: every member's accounts with their balance before the range and their
 * movement over it (D90 item 4's closing rule with the report's own range), and the intercompany
 * share of each (lines naming a partner whose taxId is another member's), from the monthly totals
 * and the edge days' lines (`LedgerFigures.groupBalances`: one statement for the group on one
 * server, one per member on Citus, each on the member's shard group, D94). The intercompany
 * partners come from the partners' parts by taxId. The caller holds the snapshot (one REPEATABLE
 * READ transaction).
 */
@Injectable()
export class MemberBalances {
  constructor(private readonly figures: LedgerFigures) {}

  /** `opening`: whether the balances before `from` are read (a balance sheet's; an income statement needs none). */
  read(members: readonly MemberScope[], from: string, to: string, opening: boolean): Promise<GroupAccountBalance[]> {
    const partnerShare =
      members.length < 2
        ? undefined
        : {
            ofGroup: (parameter: (value: unknown) => string) => {
              const ids = parameter(members.map((m) => m.entityId));
              const taxIds = parameter(members.map((m) => m.taxId));
              // A member's partners named by the taxId of another member (not its own).
              return `SELECT p.entity_id, p.id AS partner_id FROM ${groupPartnerFactsSql(`${ids}::uuid[]`)} p
                       WHERE p.tax_id = ANY(${taxIds}::text[])
                         AND EXISTS (SELECT 1 FROM unnest(${ids}::uuid[], ${taxIds}::text[]) AS o(entity_id, tax_id) WHERE o.tax_id = p.tax_id AND o.entity_id <> p.entity_id)`;
            },
            ofMember: (member: { entityId: string; entity: string }, parameter: (value: unknown) => string) => {
              // The same for one member: its partners named by another member's taxId.
              const others = members.filter((m) => m.entityId !== member.entityId).map((m) => m.taxId);
              return `SELECT p.id AS partner_id FROM ${partnerFactsSql(member.entity)} p WHERE p.tax_id = ANY(${parameter(others)}::text[])`;
            },
          };
    return this.figures.groupBalances(members, from, to, { from, to }, { partnerShare, opening });
  }
}
