import 'reflect-metadata';
import fc from 'fast-check';
import { instanceToPlain, plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { CreateEntryBody } from '../http/entries.dto';
import { inputProblems } from '../../../../platform/http/text-input.pipe';
import { checkEntryBody } from './entry-batches';

const VALIDATOR_OPTIONS = { whitelist: true, forbidNonWhitelisted: true, forbidUnknownValues: true };
const uuid = fc.oneof(fc.uuid(), fc.uuid().map((u) => u.toUpperCase()), fc.constant('not-a-uuid'));
const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(fc.oneof(arb, fc.constant(null)), { nil: undefined });
const textish = fc.oneof(fc.string({ maxLength: 5 }), fc.constant(' '), fc.constant('a\u0000b'), fc.constant('\ud800'), fc.constant('x'.repeat(1001)));
const amountish = fc.oneof(fc.integer({ min: -5, max: 5000 }), fc.constant(1.5), fc.constant('10'), fc.constant(2 ** 53), fc.constant(9_007_199_254_740_991));

const line = fc.record(
  {
    id: maybe(uuid),
    side: fc.constantFrom('debit', 'credit', 'DEBIT'),
    ledgerAccountId: uuid,
    amount: amountish,
    description: maybe(textish),
    partnerId: maybe(uuid),
    dimensionValueIds: fc.option(fc.oneof(fc.array(uuid, { maxLength: 3 }), fc.constant(null), fc.constant('x')), { nil: undefined }),
    transactionCurrency: maybe(fc.constantFrom('USD', 'usd', 'EURO')),
    transactionAmount: maybe(amountish),
    exchangeRate: maybe(fc.constantFrom('950.5', '0', '-1', '1e3', 950)),
    extra: fc.option(fc.constant(1), { nil: undefined }),
  },
  { requiredKeys: ['side', 'ledgerAccountId', 'amount'] },
);
const entry = fc.record(
  {
    id: uuid,
    entryDate: fc.constantFrom('2026-03-10', '2026-02-30', '10-03-2026', 20260310),
    memo: textish,
    notes: maybe(textish),
    bookId: maybe(uuid),
    newLedgerEntryLines: fc.oneof(fc.array(line, { maxLength: 4 }), fc.constant(null)),
    constructor: fc.option(fc.constant(1), { nil: undefined }),
  },
  { requiredKeys: ['id', 'entryDate', 'memo', 'newLedgerEntryLines'] },
);
const noUndefined = (value: unknown) => JSON.parse(JSON.stringify(value));

type RawEntry = typeof entry extends fc.Arbitrary<infer T> ? T : never;
const VALID_ENTRIES = [
  {
    id: '0195f0a8-1c2d-7e3f-8a4b-5c6d7e8f9a0b',
    entryDate: '2026-03-10',
    memo: 'Venta',
    newLedgerEntryLines: [
      { side: 'debit', ledgerAccountId: '0195F0A8-1C2D-7E3F-8A4B-5C6D7E8F9A0C', amount: 1190 },
      { side: 'credit', ledgerAccountId: '0195f0a8-1c2d-7e3f-8a4b-5c6d7e8f9a0d', amount: 1190, description: 'Neto', partnerId: '0195f0a8-1c2d-7e3f-8a4b-5c6d7e8f9a0e' },
    ],
  },
  {
    id: '0195f0a8-1c2d-7e3f-8a4b-5c6d7e8f9a1b',
    entryDate: '2026-02-28',
    memo: 'Pago USD',
    notes: null,
    bookId: '0195f0a8-1c2d-7e3f-8a4b-5c6d7e8f9a1c',
    newLedgerEntryLines: [
      { id: '0195f0a8-1c2d-7e3f-8a4b-5c6d7e8f9a1d', side: 'debit', ledgerAccountId: '0195f0a8-1c2d-7e3f-8a4b-5c6d7e8f9a1e', amount: 95050, transactionCurrency: 'USD', transactionAmount: 10000, exchangeRate: '950.5' },
      { side: 'credit', ledgerAccountId: '0195f0a8-1c2d-7e3f-8a4b-5c6d7e8f9a1f', amount: 95050, dimensionValueIds: [] },
    ],
  },
];

describe("checkEntryBody (the import's check of an entry)", () => {
  it("accepts exactly the entries the entry route accepts, giving the body its validators give", () => {
    let accepted = 0;
    fc.assert(
      fc.property(entry, (raw) => {
        const input = noUndefined(raw);
        const checked = checkEntryBody(noUndefined(raw));
        const body = plainToInstance(CreateEntryBody, input);
        const routeAccepts = inputProblems(input, '').length === 0 && validateSync(body, VALIDATOR_OPTIONS).length === 0;
        expect('body' in checked).toBe(routeAccepts);
        if (!('body' in checked)) return;
        accepted++;
        expect(noUndefined(checked.body)).toEqual(noUndefined(instanceToPlain(body)));
      }),
      // Random entries are rarely valid in every field: these are, so the acceptance side is always exercised.
      { numRuns: 3000, examples: VALID_ENTRIES.map((e): [RawEntry] => [e as unknown as RawEntry]) },
    );
    expect(accepted).toBeGreaterThanOrEqual(VALID_ENTRIES.length);
  });
});
