import { Injectable } from '@nestjs/common';
import { LedgerFigures } from '../../../ledger';
import type { GroupAccountFigures } from '../../../ledger';
import { groupPartnerFactsSql } from '../../../partners';

/** A member of the group as read: its Entity, its Book and its taxId. */
export interface MemberScope {
  entityId: string;
  bookId: string | null;
  taxId: string;
}

/**
 * D91 items 1 and 2: every member's accounts with their balance before the range and their
 * movement over it (D90 item 4's closing rule with the report's own range), and the intercompany
 * share of each (lines naming a partner whose taxId is another member's), all in one statement
 * and so one snapshot (`LedgerFigures.groupAccountFigures`, from the monthly totals and the edge
 * days' lines). The intercompany partners come from the partners' part by taxId.
 * A read over several Entities: multi-shard on Citus (docs/CITUS.md).
 */
@Injectable()
export class MemberBalances {
  constructor(private readonly figures: LedgerFigures) {}

  read(members: readonly MemberScope[], from: string, to: string): Promise<GroupAccountFigures[]> {
    const partnerShare =
      members.length < 2
        ? undefined
        : (parameter: (value: unknown) => string) => {
            const ids = parameter(members.map((m) => m.entityId));
            const taxIds = parameter(members.map((m) => m.taxId));
            // A member's partners named by the taxId of another member (not its own).
            return `SELECT p.entity_id, p.id AS partner_id FROM ${groupPartnerFactsSql(`${ids}::uuid[]`)} p
                     WHERE p.tax_id = ANY(${taxIds}::text[])
                       AND EXISTS (SELECT 1 FROM unnest(${ids}::uuid[], ${taxIds}::text[]) AS o(entity_id, tax_id) WHERE o.tax_id = p.tax_id AND o.entity_id <> p.entity_id)`;
          };
    return this.figures.groupAccountFigures(members, from, to, { from, to }, { partnerShare });
  }
}
