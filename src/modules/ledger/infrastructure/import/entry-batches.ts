import { Injectable } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import { validateSync, ValidatorOptions } from 'class-validator';
import { isIsoDate, isRate, isUuid, MAX_AMOUNT, textProblem } from '../../../../../libs/shared-kernel/src';
import { inputProblems } from '../../../../platform/http/text-input.pipe';
import { flattenValidationErrors } from '../../../../platform/http/validation';
import { ledgerRouteFieldPath } from '../../application/post-entry/field-paths';
import { BATCH_REFUSALS_MAX, BatchRefusal, batchRefused, LedgerPostings, PostedBatch } from '../../application/post-entry/ledger-postings';
import { CreateEntryBody, NewLineBody } from '../http/entries.dto';

/** As the request pipeline validates a body (createValidationPipe): unknown properties refused. */
const VALIDATOR_OPTIONS: ValidatorOptions = { whitelist: true, forbidNonWhitelisted: true, forbidUnknownValues: true, validationError: { target: false, value: true } };

/**
 * An entry as `POST .../ledger/entries` takes it, checked as the request pipeline checks that
 * body (text that PostgreSQL cannot hold, nesting, then the DTO's validators): the body, or the
 * problems, each at a path of the entry (`newLedgerEntryLines[1].amount`).
 */
export function checkEntryBody(raw: unknown): { body: CreateEntryBody } | { problems: Array<{ path: string; message: string }> } {
  const fast = validEntryBody(raw);
  if (fast) return { body: fast };
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return { problems: [{ path: '', message: 'an entry is a JSON object' }] };
  const text = inputProblems(raw, '');
  if (text.length > 0) return { problems: text };
  const body = plainToInstance(CreateEntryBody, raw);
  const errors = validateSync(body, VALIDATOR_OPTIONS);
  if (errors.length > 0) return { problems: flattenValidationErrors(errors) };
  return { body };
}

const ENTRY_KEYS = new Set(['id', 'entryDate', 'memo', 'notes', 'bookId', 'newLedgerEntryLines']);
const LINE_KEYS = new Set(['id', 'side', 'ledgerAccountId', 'amount', 'description', 'partnerId', 'dimensionValueIds', 'transactionCurrency', 'transactionAmount', 'exchangeRate']);
const absent = (value: unknown) => value === null || value === undefined;
const text = (value: unknown, max: number): value is string => typeof value === 'string' && value.length <= max && textProblem(value) === null;
const optionalText = (value: unknown, max: number) => absent(value) || text(value, max);
const optionalUuid = (value: unknown) => absent(value) || isUuid(value);
const amount = (value: unknown) => Number.isInteger(value) && (value as number) >= 1 && (value as number) <= MAX_AMOUNT;
const plainObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const onlyKeys = (value: Record<string, unknown>, keys: Set<string>) => Object.keys(value).every((key) => keys.has(key));

/**
 * The entry when it is plainly valid, checked by hand (the import's hot path: class-validator
 * and class-transformer cost about 0.25 ms an entry), with its ids in canonical form, as the
 * validators and IsUuid's transform leave a body; null for anything else, which is then checked
 * by the validators themselves, so a refusal says exactly what the entry route would. At least
 * as strict as CreateEntryBody's validators and the text-input checks.
 */
function validEntryBody(raw: unknown): CreateEntryBody | null {
  if (!plainObject(raw) || !onlyKeys(raw, ENTRY_KEYS)) return null;
  const { id, entryDate, memo, notes, bookId, newLedgerEntryLines: lines } = raw;
  if (!isUuid(id) || !isIsoDate(entryDate) || !text(memo, 1000) || !/\S/.test(memo) || !optionalText(notes, 10000) || !optionalUuid(bookId)) return null;
  if (!Array.isArray(lines) || lines.length > 500) return null;
  const checked: NewLineBody[] = [];
  for (const line of lines as unknown[]) {
    if (!plainObject(line) || !onlyKeys(line, LINE_KEYS)) return null;
    const values = line.dimensionValueIds;
    if (
      !(line.id === undefined || line.id === null || isUuid(line.id)) ||
      (line.side !== 'debit' && line.side !== 'credit') ||
      !isUuid(line.ledgerAccountId) ||
      !amount(line.amount) ||
      !optionalText(line.description, 1000) ||
      !optionalUuid(line.partnerId) ||
      !(values === undefined || (Array.isArray(values) && values.length <= 20 && values.every(isUuid))) ||
      !(absent(line.transactionCurrency) || (typeof line.transactionCurrency === 'string' && /^[A-Z]{3}$/.test(line.transactionCurrency))) ||
      !(absent(line.transactionAmount) || amount(line.transactionAmount)) ||
      !(absent(line.exchangeRate) || (isRate(line.exchangeRate) && textProblem(line.exchangeRate) === null))
    ) {
      return null;
    }
    checked.push({
      ...(line as unknown as NewLineBody),
      ...(typeof line.id === 'string' ? { id: line.id.toLowerCase() } : {}),
      ledgerAccountId: (line.ledgerAccountId as string).toLowerCase(),
      ...(typeof line.partnerId === 'string' ? { partnerId: line.partnerId.toLowerCase() } : {}),
      ...(values !== undefined ? { dimensionValueIds: (values as string[]).map((v) => v.toLowerCase()) } : {}),
    });
  }
  return {
    ...(raw as unknown as CreateEntryBody),
    id: (id as string).toLowerCase(),
    ...(typeof bookId === 'string' ? { bookId: bookId.toLowerCase() } : {}),
    newLedgerEntryLines: checked,
  };
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
