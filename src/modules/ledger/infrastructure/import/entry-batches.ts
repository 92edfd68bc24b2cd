import { Injectable } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import { validateSync, ValidatorOptions } from 'class-validator';
import { compiledAcceptor } from '../../../../platform/http/compiled-validation';
import { inputProblems } from '../../../../platform/http/text-input.pipe';
import { flattenValidationErrors } from '../../../../platform/http/validation';
import { ledgerRouteFieldPath } from '../../application/post-entry/field-paths';
import { BATCH_REFUSALS_MAX, BatchRefusal, batchRefused, LedgerPostings, PostedBatch } from '../../application/post-entry/ledger-postings';
import { CreateEntryBody } from '../http/entries.dto';

const acceptEntry = compiledAcceptor(CreateEntryBody);

/** As the request pipeline validates a body (createValidationPipe): unknown properties refused. */
const VALIDATOR_OPTIONS: ValidatorOptions = { whitelist: true, forbidNonWhitelisted: true, forbidUnknownValues: true, validationError: { target: false, value: true } };

/**
 * An entry as `POST .../ledger/entries` takes it, checked as the request pipeline checks that
 * body (text that PostgreSQL cannot hold, nesting, then the DTO's validators): the body, or the
 * problems, each at a path of the entry (`newLedgerEntryLines[1].amount`).
 */
export function checkEntryBody(raw: unknown): { body: CreateEntryBody } | { problems: Array<{ path: string; message: string }> } {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return { problems: [{ path: '', message: 'an entry is a JSON object' }] };
  const text = inputProblems(raw, '');
  if (text.length > 0) return { problems: text };
  // The import's hot path: class-transformer and class-validator cost about 0.25 ms an entry, the
  // compiled plan of the same decorators a fraction of it (the refusals still come from them).
  const accepted = acceptEntry(raw);
  if (accepted) return { body: accepted };
  const body = plainToInstance(CreateEntryBody, raw);
  const errors = validateSync(body, VALIDATOR_OPTIONS);
  if (errors.length > 0) return { problems: flattenValidationErrors(errors) };
  return { body };
}

/**
 * Batches of entries in the body shape of `POST .../ledger/entries` (the entry-batches route, the
 * `ledger:import` command): each checked as that route checks its body, then posted together
 * through LedgerPostings.postBatch, all or nothing. A batch with refused entries answers 400
 * VALIDATION_ERROR whose `errors` (BatchRefusal: index, path, code, message) name the first 100.
 */
@Injectable()
export class LedgerEntryBatches {
  constructor(private readonly postings: LedgerPostings) {}

  async post(entityId: string, raw: unknown[], entryPath: (index: number) => string = (i) => `entries[${i}]`): Promise<PostedBatch> {
    const at = (index: number, path: string) => [entryPath(index), path].filter((p) => p !== '').join('.');
    const refusals: BatchRefusal[] = [];
    const bodies: CreateEntryBody[] = [];
    for (let index = 0; index < raw.length && refusals.length < BATCH_REFUSALS_MAX; index++) {
      const checked = checkEntryBody(raw[index]);
      if ('problems' in checked) {
        for (const problem of checked.problems.slice(0, BATCH_REFUSALS_MAX - refusals.length)) {
          refusals.push({ index, path: at(index, problem.path), code: 'VALIDATION_ERROR', message: problem.message });
        }
      } else bodies.push(checked.body);
    }
    if (refusals.length > 0) throw batchRefused(refusals);
    return this.postings.postBatch(
      entityId,
      bodies.map((body) => ({ id: body.id, source: 'manual', entryDate: body.entryDate, memo: body.memo, notes: body.notes ?? null, bookId: body.bookId ?? null, lines: body.newLedgerEntryLines })),
      { fieldPath: ledgerRouteFieldPath, entryPath },
    );
  }
}
