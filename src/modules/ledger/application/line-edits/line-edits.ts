import { Injectable } from '@nestjs/common';
import { Transactional } from '@nestjs-cls/transactional';

import { isResultType } from '../../domain/account-types';
import { AllocationRepository, EntryRepository, ListedLine } from '../../domain/entry-ports';
import { LedgerEntry } from '../../domain/ledger-entry';
import { ledgerAccountNotFound, ledgerError } from '../../domain/ledger-errors';
import { ChartRepository } from '../../domain/ledger-ports';
import { EntryLifecycle } from '../entry-lifecycle';
import { PartnerDirectory } from '../partner-directory';
import { EntryLocks } from '../entry-locks';

/** The line routes: partner, account and Dimension Values of a line of a live entry in an open period. */
@Injectable()
export class LineEdits {
  constructor(
    private readonly entries: EntryRepository,
    private readonly allocations: AllocationRepository,
    private readonly chart: ChartRepository,
    private readonly partners: PartnerDirectory,
    private readonly locks: EntryLocks,
    private readonly lifecycle: EntryLifecycle,
  ) {}

  @Transactional()
  async setLinePartner(entityId: string, lineId: string, partnerId: string | null): Promise<ListedLine> {
    const line = await this.locks.editableLine(entityId, lineId);
    if (partnerId !== null && !(await this.partners.holdExisting(entityId, [partnerId])).has(partnerId)) {
      throw this.partners.notFound(partnerId);
    }
    await this.entries.updateLine(entityId, line.id, { partnerId });
    return (await this.entries.findLine(entityId, lineId))!;
  }

  /** Only a line with no allocation and no document link, of an entry in an open period. */
  @Transactional()
  async setLineAccount(entityId: string, lineId: string, accountId: string): Promise<ListedLine> {
    const line = await this.locks.editableLine(entityId, lineId);
    if (line.allocatedAmount > 0 || (await this.allocations.allocationsOfLines(entityId, [lineId])).length > 0) {
      throw ledgerError('LEDGER_LINE_HAS_ALLOCATIONS_ERROR', 'The line is settled by an allocation', { lineId });
    }
    if ((await this.lifecycle.documentLinkedLines(entityId, [lineId])).has(lineId)) {
      throw ledgerError('LEDGER_LINE_DOCUMENT_LINKED_ERROR', 'A document (invoice or bank movement) is linked to the line', { lineId });
    }
    const [account] = await this.chart.accountsByIds(entityId, [accountId], true);
    if (!account) throw ledgerAccountNotFound({ accountId });
    if (line.dimensionValues.length > 0 && !isResultType(account.type)) {
      throw ledgerError('LEDGER_LINE_DIMENSIONS_REQUIRE_RESULT_ACCOUNT_ERROR', 'Only lines on Result Accounts carry Dimension Values', { lineId });
    }
    await this.entries.shiftLineTotals(entityId, lineId, -1);
    await this.entries.updateLine(entityId, lineId, { accountId, isOpenItem: account.tracking === 'open_item' });
    await this.entries.shiftLineTotals(entityId, lineId, 1);
    return (await this.entries.findLine(entityId, lineId))!;
  }

  @Transactional()
  async setLineDimensionValues(entityId: string, lineId: string, valueIds: string[]): Promise<ListedLine> {
    const line = await this.locks.editableLine(entityId, lineId);
    const context = await this.locks.postingContext(entityId, '', [{ ...line, dimensionValueIds: valueIds }]);
    const values = valueIds.length === 0 ? [] : LedgerEntry.judgeDimensionValues(valueIds, context.account(line.ledgerAccountId)!.type, context, { lineId });
    await this.entries.replaceLineDimensionValues(entityId, lineId, values);
    return (await this.entries.findLine(entityId, lineId))!;
  }
}
