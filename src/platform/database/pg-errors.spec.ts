import { QueryFailedError } from 'typeorm';
import { isForeignKeyViolation, isUniqueViolation, pgFailure, translateUniqueViolation, uniqueViolationKey, withoutShardSuffix } from './pg-errors';

/** A node-postgres error as the driver gives it (the fields PostgreSQL or Citus sent). */
function pgError(fields: Record<string, string>): Error {
  return Object.assign(new Error(fields.message), fields);
}

const ENTITY = '22222222-2222-4222-8222-222222222222';

// Errors exactly as node-postgres reported them from a Citus 13.2.2 coordinator with two
// workers (docs/CITUS.md): a worker's refusal loses `constraint` and `table`; a refusal through
// Citus's COPY path (INSERT ... SELECT of several rows) comes as XX000.
const CITUS_REFERENCE_DUPLICATE = pgError({
  code: '23505',
  message: 'duplicate key value violates unique constraint "PK_6b031fcd0863e3f6b44230163f9_102250"',
  detail: 'Key (id)=(11111111-1111-4111-8111-111111111111) already exists.',
});
const CITUS_COPY_DUPLICATE = pgError({
  code: 'XX000',
  message: 'duplicate key value violates unique constraint "books_name_key_102314"',
  detail: `Key (entity_id, name)=(${ENTITY}, Main) already exists.`,
});
const CITUS_FOREIGN_KEY = pgError({
  code: '23503',
  message: 'insert or update on table "ledger_entries_102434" violates foreign key constraint "FK_1a74b12b92f9f7fa9c3c056b582_102434"',
  detail: `Key (entity_id, book_id)=(${ENTITY}, 45b31933-47b1-4a05-ab12-7d58cba8fc03) is not present in table "books_102314".`,
});
// A shard written on the server that answers keeps the fields, with the shard's suffix.
const CITUS_LOCAL_SHARD_DUPLICATE = pgError({
  code: '23505',
  message: 'duplicate key value violates unique constraint "books_name_key_102058"',
  constraint: 'books_name_key_102058',
  table: 'books_102058',
  detail: `Key (entity_id, name)=(${ENTITY}, Main) already exists.`,
});
const PLAIN_DUPLICATE = pgError({
  code: '23505',
  message: 'duplicate key value violates unique constraint "books_name_key"',
  constraint: 'books_name_key',
  table: 'books',
  detail: `Key (entity_id, name)=(${ENTITY}, Main) already exists.`,
});

describe('pg-errors on plain PostgreSQL and on Citus (D94)', () => {
  it('strips a shard suffix (six digits or more) and nothing else', () => {
    expect(withoutShardSuffix('books_name_key_102314')).toBe('books_name_key');
    expect(withoutShardSuffix('PK_6b031fcd0863e3f6b44230163f9_102250')).toBe('PK_6b031fcd0863e3f6b44230163f9');
    expect(withoutShardSuffix('books_102058')).toBe('books');
    expect(withoutShardSuffix('books_name_key')).toBe('books_name_key');
    expect(withoutShardSuffix('PK_2edb1131879aa86f61a56015e12')).toBe('PK_2edb1131879aa86f61a56015e12');
    expect(withoutShardSuffix('slot_32')).toBe('slot_32');
  });

  it('reads the constraint of a plain refusal, of a local shard and of a worker (from the message)', () => {
    expect(pgFailure(PLAIN_DUPLICATE)).toEqual({ code: '23505', constraint: 'books_name_key', table: 'books', detail: `Key (entity_id, name)=(${ENTITY}, Main) already exists.` });
    expect(pgFailure(CITUS_LOCAL_SHARD_DUPLICATE)).toMatchObject({ code: '23505', constraint: 'books_name_key', table: 'books' });
    expect(pgFailure(CITUS_REFERENCE_DUPLICATE)).toMatchObject({ code: '23505', constraint: 'PK_6b031fcd0863e3f6b44230163f9', table: undefined });
    expect(pgFailure(CITUS_FOREIGN_KEY)).toMatchObject({ code: '23503', constraint: 'FK_1a74b12b92f9f7fa9c3c056b582', table: undefined });
  });

  it("treats Citus's XX000 duplicate key (COPY path) as a unique violation of its constraint", () => {
    expect(pgFailure(CITUS_COPY_DUPLICATE)).toMatchObject({ code: '23505', constraint: 'books_name_key' });
    expect(isUniqueViolation(CITUS_COPY_DUPLICATE)).toBe(true);
    expect(isUniqueViolation(CITUS_COPY_DUPLICATE, 'books_name_key')).toBe(true);
    expect(isUniqueViolation(CITUS_COPY_DUPLICATE, 'dimensions_name_key')).toBe(false);
  });

  it('leaves any other XX000 alone', () => {
    const other = pgError({ code: 'XX000', message: 'could not connect to worker 127.0.0.1:9701' });
    expect(isUniqueViolation(other)).toBe(false);
    expect(isForeignKeyViolation(other)).toBe(false);
    expect(pgFailure(other)?.code).toBe('XX000');
  });

  it('names the constraint the same way wherever the row was refused', () => {
    for (const error of [PLAIN_DUPLICATE, CITUS_LOCAL_SHARD_DUPLICATE, CITUS_COPY_DUPLICATE]) {
      expect(isUniqueViolation(error, 'books_name_key')).toBe(true);
    }
    expect(isUniqueViolation(new QueryFailedError('INSERT', [], CITUS_LOCAL_SHARD_DUPLICATE), 'books_name_key')).toBe(true);
    expect(isForeignKeyViolation(CITUS_FOREIGN_KEY, 'FK_1a74b12b92f9f7fa9c3c056b582')).toBe(true);
  });

  it('maps a refusal to the domain conflict of its key (translateUniqueViolation) on every path', async () => {
    for (const error of [PLAIN_DUPLICATE, CITUS_LOCAL_SHARD_DUPLICATE, CITUS_COPY_DUPLICATE]) {
      await expect(
        translateUniqueViolation(() => Promise.reject(error), () => new Error('BOOK_ALREADY_EXISTS_ERROR'), { books_name_key: () => new Error('BOOK_NAME_ALREADY_EXISTS_ERROR') }),
      ).rejects.toThrow('BOOK_NAME_ALREADY_EXISTS_ERROR');
    }
    await expect(translateUniqueViolation(() => Promise.reject(CITUS_REFERENCE_DUPLICATE), () => new Error('ORGANIZATION_ALREADY_EXISTS_ERROR'))).rejects.toThrow(
      'ORGANIZATION_ALREADY_EXISTS_ERROR',
    );
  });

  it("reads a key's values by table, or, where a worker named no table, by the table's constraints", () => {
    expect(uniqueViolationKey(PLAIN_DUPLICATE, 'books')).toEqual({ entity_id: ENTITY, name: 'Main' });
    expect(uniqueViolationKey(CITUS_LOCAL_SHARD_DUPLICATE, 'books')).toEqual({ entity_id: ENTITY, name: 'Main' });
    expect(uniqueViolationKey(PLAIN_DUPLICATE, 'ledger_lines')).toBeNull();
    expect(uniqueViolationKey(CITUS_COPY_DUPLICATE, 'books')).toBeNull();
    expect(uniqueViolationKey(CITUS_COPY_DUPLICATE, 'books', ['books_name_key'])).toEqual({ entity_id: ENTITY, name: 'Main' });
    expect(uniqueViolationKey(CITUS_COPY_DUPLICATE, 'ledger_lines', ['PK_a6c534bfea847212ac0dd0b99ea'])).toBeNull();
  });
});
