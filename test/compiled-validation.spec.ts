import 'reflect-metadata';
import { ArgumentMetadata, ValidationPipe } from '@nestjs/common';
import fc from 'fast-check';
import { CreateEntryBody, EditEntryBody, LinePartnerBody, NewLineBody, ReverseEntryBody } from '../src/modules/ledger/infrastructure/http/entries.dto';
import { ValidationPlans } from '../src/platform/http/compiled-validation';
import { createValidationPipe, flattenValidationErrors, RequestValidationError } from '../src/platform/http/validation';

/** The pipe as it was before issue 25: Nest's ValidationPipe alone, with the same options. */
function fullPipe(): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    forbidUnknownValues: true,
    validationError: { target: false, value: true },
    exceptionFactory: (errors) => new RequestValidationError(flattenValidationErrors(errors)),
  });
}

/** A body as the JSON parser makes it (structuredClone would make its objects in another realm under Jest). */
const json = (value: unknown): unknown => (value === undefined ? undefined : JSON.parse(JSON.stringify(value)));

type Outcome = { accepted: unknown } | { refused: unknown };

async function outcome(pipe: ValidationPipe, value: unknown, metatype: new () => object): Promise<Outcome> {
  const metadata: ArgumentMetadata = { type: 'body', metatype: metatype as unknown as ArgumentMetadata['metatype'] };
  try {
    return { accepted: await pipe.transform(json(value), metadata) };
  } catch (error) {
    if (!(error instanceof RequestValidationError)) throw error;
    return { refused: { code: error.code, message: error.message, params: error.params } };
  }
}

const ID = '0b8f3f7e-5d0a-4c1e-9a53-2f0f4b1d9c11';
const validLine = () => ({ side: 'debit', ledgerAccountId: ID, amount: 1500 });
const validEntry = () => ({
  id: ID,
  entryDate: '2026-01-15',
  memo: 'Sale',
  newLedgerEntryLines: [validLine(), { ...validLine(), side: 'credit' }],
});

/** Values of every JSON type, and the edge cases the decorators judge. */
const anyValue = fc.oneof(
  fc.constantFrom(null, true, false, 0, 1, -1, 1.5, 2 ** 53, '', ' ', 'x', ID, ID.toUpperCase(), '2026-02-30', '2026-01-15', 'debit', 'credit', 'USD', 'usd', '950.5', '0', [], {}, [ID], [1]),
  fc.string({ maxLength: 8 }),
  fc.integer(),
  fc.double(),
);

const LINE_KEYS = ['id', 'side', 'ledgerAccountId', 'amount', 'description', 'partnerId', 'dimensionValueIds', 'transactionCurrency', 'transactionAmount', 'exchangeRate', 'unknown'];
const ENTRY_KEYS = ['id', 'entryDate', 'memo', 'notes', 'bookId', 'newLedgerEntryLines', 'unknown'];

/** A valid body with a few properties set, replaced or removed. */
function mutated(base: () => Record<string, unknown>, keys: string[]) {
  return fc.array(fc.tuple(fc.constantFrom(...keys), fc.option(anyValue, { nil: undefined })), { maxLength: 3 }).map((edits) => {
    const body = base();
    for (const [key, value] of edits) {
      if (value === undefined) delete body[key];
      else body[key] = value;
    }
    return body;
  });
}

const entryBodies = fc.oneof(
  mutated(validEntry, ENTRY_KEYS),
  fc.tuple(mutated(validEntry, ENTRY_KEYS), fc.array(mutated(validLine, LINE_KEYS), { maxLength: 4 })).map(([entry, lines]) => ({ ...entry, newLedgerEntryLines: lines })),
  anyValue,
);

describe('compiled validation (issue 25)', () => {
  const compiled = createValidationPipe();
  const full = fullPipe();
  const plans = new ValidationPlans();

  /** Same answer from both pipes, and every body the full pipe accepts is accepted by the plan alone. */
  async function same(body: unknown, metatype: new () => object): Promise<void> {
    const expected = await outcome(full, body, metatype);
    expect(await outcome(compiled, body, metatype)).toStrictEqual(expected);
    if ('accepted' in expected) expect(typeof plans.accept(plans.planOf(metatype)!, json(body))).toBe('object');
  }

  it('accepts a valid posting body from its plan, as the instance class-transformer builds', async () => {
    const plan = plans.planOf(CreateEntryBody)!;
    expect(plan).not.toBeNull();
    const body = { ...validEntry(), newLedgerEntryLines: [{ ...validLine(), ledgerAccountId: ID.toUpperCase(), dimensionValueIds: [ID.toUpperCase()] }, { ...validLine(), side: 'credit' }] };
    const accepted = plans.accept(plan, json(body));
    expect(typeof accepted).toBe('object');
    expect(accepted).toBeInstanceOf(CreateEntryBody);
    expect((accepted as CreateEntryBody).newLedgerEntryLines[0]).toBeInstanceOf(NewLineBody);
    expect(accepted).toStrictEqual((await outcome(full, body, CreateEntryBody) as { accepted: unknown }).accepted);
    expect((accepted as CreateEntryBody).newLedgerEntryLines[0].ledgerAccountId).toBe(ID);
  });

  it('answers every posting body exactly as the full pipe does: the same instance, or the same VALIDATION_ERROR', async () => {
    await fc.assert(
      fc.asyncProperty(entryBodies, async (body) => {
        await same(body, CreateEntryBody);
      }),
      { numRuns: 600 },
    );
  });

  it.each([
    ['EditEntryBody', EditEntryBody, ['entryDate', 'memo', 'notes', 'unknown']],
    ['ReverseEntryBody', ReverseEntryBody, ['id', 'reversalDate', 'memo', 'unknown']],
    ['LinePartnerBody', LinePartnerBody, ['partnerId', 'unknown']],
  ] as const)('answers %s exactly as the full pipe does', async (_name, metatype, keys) => {
    await fc.assert(
      fc.asyncProperty(fc.dictionary(fc.constantFrom(...keys), anyValue, { maxKeys: 4 }), async (body) => {
        await same(body, metatype);
      }),
      { numRuns: 200 },
    );
  });
});
