import { randomUUID } from 'node:crypto';
import type { Test } from 'supertest';
import { checkAccessMatrix, MatrixRoute } from './harness/access-matrix';
import { expectRefused } from './harness/db-checks';
import type { TestApp } from './harness/test-app';
import { Agent, createWorldApp, freshEntity, ISO_DATETIME, World } from './harness/world';

describe('Books', () => {
  let t: TestApp;
  let world: World;
  let staff: Agent;

  beforeAll(async () => {
    ({ t, world, staff } = await createWorldApp());
  });
  afterAll(() => t.close());

  const booksPath = (entityId: string) => `/api/entities/${entityId}/books`;
  const createBook = async (entityId: string, name: string, id: string = randomUUID()) => {
    const res = await staff.post(booksPath(entityId)).send({ id, name });
    expect(res.status).toBe(201);
    return res.body as { id: string; entityId: string; name: string; createdAt: string; updatedAt: string };
  };
  const bookRows = (entityId: string) =>
    t.sql<{ id: string; name: string }>('SELECT id, name FROM books WHERE entity_id = $1 ORDER BY position', [entityId]);
  /** Sends a request that must be refused, and checks that neither the Books nor the audit trail changed. */
  const refusedWithoutWrites = (req: Test, status: number, code: string) => expectRefused(t, ['books', 'audit_trail'], req, status, code);

  describe('POST /books', () => {
    it('creates a Book and answers 201 with { id, entityId, name, createdAt, updatedAt }', async () => {
      const entityId = await freshEntity(world);
      const id = randomUUID();
      const res = await staff.post(booksPath(entityId)).send({ id, name: 'IFRS' });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({ id, entityId, name: 'IFRS', createdAt: expect.stringMatching(ISO_DATETIME), updatedAt: expect.stringMatching(ISO_DATETIME) });
      expect(await bookRows(entityId)).toEqual([{ id, name: 'IFRS' }]);
      const audit = await t.sql('SELECT action, resource_type, resource_id FROM audit_trail WHERE entity_id = $1 AND action = $2', [entityId, 'book.create']);
      expect(audit).toEqual([{ action: 'book.create', resource_type: 'book', resource_id: id }]);
    });

    it('refuses a reused id with 409 BOOK_ALREADY_EXISTS_ERROR and writes nothing', async () => {
      const entityId = await freshEntity(world);
      const book = await createBook(entityId, 'IFRS');
      await refusedWithoutWrites(staff.post(booksPath(entityId)).send({ id: book.id, name: 'Tax' }), 409, 'BOOK_ALREADY_EXISTS_ERROR');
      expect(await bookRows(entityId)).toEqual([{ id: book.id, name: 'IFRS' }]);
    });

    it('refuses a name used in the Entity with 409 BOOK_NAME_ALREADY_EXISTS_ERROR and writes nothing', async () => {
      const entityId = await freshEntity(world);
      const book = await createBook(entityId, 'IFRS');
      await refusedWithoutWrites(staff.post(booksPath(entityId)).send({ id: randomUUID(), name: 'IFRS' }), 409, 'BOOK_NAME_ALREADY_EXISTS_ERROR');
      expect(await bookRows(entityId)).toEqual([{ id: book.id, name: 'IFRS' }]);
    });

    it('stores the name trimmed, so a padded copy of a name in use is refused with 409 BOOK_NAME_ALREADY_EXISTS_ERROR', async () => {
      const entityId = await freshEntity(world);
      const book = await createBook(entityId, '  IFRS  ');
      expect(book.name).toBe('IFRS');
      const res = await staff.post(booksPath(entityId)).send({ id: randomUUID(), name: ' IFRS' });
      expect(res.status).toBe(409);
      expect(res.body.code).toBe('BOOK_NAME_ALREADY_EXISTS_ERROR');
      expect(await bookRows(entityId)).toEqual([{ id: book.id, name: 'IFRS' }]);
    });

    it('accepts the same name in another Entity', async () => {
      const first = await freshEntity(world);
      const second = await freshEntity(world);
      await createBook(first, 'IFRS');
      await createBook(second, 'IFRS');
    });

    it.each([
      ['an empty name', { id: randomUUID(), name: '' }],
      ['a blank name (it would be stored empty)', { id: randomUUID(), name: '   ' }],
      ['a missing id', { name: 'IFRS' }],
      ['a malformed id', { id: 'not-a-uuid', name: 'IFRS' }],
      ['an unknown property', { id: randomUUID(), name: 'IFRS', primary: true }],
    ])('refuses %s with 400 VALIDATION_ERROR and writes nothing', async (_label, body) => {
      const entityId = await freshEntity(world);
      await refusedWithoutWrites(staff.post(booksPath(entityId)).send(body), 400, 'VALIDATION_ERROR');
      expect(await bookRows(entityId)).toEqual([]);
    });
  });

  describe('GET /books', () => {
    it('lists the Books in creation order, not by name', async () => {
      const entityId = await freshEntity(world);
      const z = await createBook(entityId, 'Z');
      const a = await createBook(entityId, 'A');
      const m = await createBook(entityId, 'M');
      const res = await staff.get(booksPath(entityId));
      expect(res.status).toBe(200);
      expect(res.body).toEqual([z, a, m]);
    });

    it('answers an empty array for an Entity without Books', async () => {
      const entityId = await freshEntity(world);
      const res = await staff.get(booksPath(entityId));
      expect(res.status).toBe(200);
      expect(res.body).toEqual([]);
    });
  });

  describe('GET /books/:bookId', () => {
    it('answers 200 with the Book', async () => {
      const entityId = await freshEntity(world);
      const book = await createBook(entityId, 'IFRS');
      const res = await staff.get(`${booksPath(entityId)}/${book.id}`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual(book);
    });

    it('answers 404 BOOK_NOT_FOUND_ERROR for an unknown Book', async () => {
      const entityId = await freshEntity(world);
      const res = await staff.get(`${booksPath(entityId)}/${randomUUID()}`);
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('BOOK_NOT_FOUND_ERROR');
    });

    it('answers 404 BOOK_NOT_FOUND_ERROR for a Book of another Entity', async () => {
      const entityId = await freshEntity(world);
      const other = await freshEntity(world);
      const foreign = await createBook(other, 'IFRS');
      const res = await staff.get(`${booksPath(entityId)}/${foreign.id}`);
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('BOOK_NOT_FOUND_ERROR');
    });

    it('answers 400 VALIDATION_ERROR for a malformed Book id', async () => {
      const entityId = await freshEntity(world);
      const res = await staff.get(`${booksPath(entityId)}/not-a-uuid`);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('VALIDATION_ERROR');
    });
  });

  describe('the bookId rules on a book-scoped read (GET /partners/pages)', () => {
    const pages = (entityId: string, bookId?: string) =>
      staff.get(`/api/entities/${entityId}/partners/pages`).query(bookId === undefined ? {} : { bookId });

    it('an Entity without Books answers 200 without bookId', async () => {
      const entityId = await freshEntity(world);
      const res = await pages(entityId);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ rows: [], nextCursor: null });
    });

    it('an Entity without Books refuses any bookId with 404 BOOK_NOT_FOUND_ERROR', async () => {
      const entityId = await freshEntity(world);
      const other = await freshEntity(world);
      const foreign = await createBook(other, 'IFRS');
      for (const bookId of [randomUUID(), foreign.id]) {
        const res = await pages(entityId, bookId);
        expect({ bookId, status: res.status, code: res.body.code }).toEqual({ bookId, status: 404, code: 'BOOK_NOT_FOUND_ERROR' });
      }
    });

    it('once the Entity has a Book, no bookId is refused with 409 BOOK_REQUIRED_ERROR', async () => {
      const entityId = await freshEntity(world);
      await createBook(entityId, 'IFRS');
      const res = await pages(entityId);
      expect(res.status).toBe(409);
      expect(res.body.code).toBe('BOOK_REQUIRED_ERROR');
    });

    it("once the Entity has a Book, the Book's id answers 200", async () => {
      const entityId = await freshEntity(world);
      const book = await createBook(entityId, 'IFRS');
      const res = await pages(entityId, book.id);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ rows: [], nextCursor: null });
    });

    it("once the Entity has a Book, another Entity's Book id or an unknown id is refused with 404 BOOK_NOT_FOUND_ERROR", async () => {
      const entityId = await freshEntity(world);
      const other = await freshEntity(world);
      await createBook(entityId, 'IFRS');
      const foreign = await createBook(other, 'IFRS');
      for (const bookId of [foreign.id, randomUUID()]) {
        const res = await pages(entityId, bookId);
        expect({ bookId, status: res.status, code: res.body.code }).toEqual({ bookId, status: 404, code: 'BOOK_NOT_FOUND_ERROR' });
      }
    });

    it('a malformed bookId is refused with 400 VALIDATION_ERROR', async () => {
      const entityId = await freshEntity(world);
      const res = await pages(entityId, 'not-a-uuid');
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('VALIDATION_ERROR');
    });
  });

  describe('access matrix', () => {
    let bookId: string;
    beforeAll(async () => {
      bookId = (await createBook(world.entityId, `Matrix ${randomUUID()}`)).id;
    });

    const routes: Array<[string, () => MatrixRoute]> = [
      ['GET /books', () => ({ method: 'get', path: (id) => `/api/entities/${id}/books` })],
      ['POST /books', () => ({ method: 'post', path: (id) => `/api/entities/${id}/books`, body: () => ({ id: randomUUID(), name: randomUUID() }) })],
      ['GET /books/:bookId', () => ({ method: 'get', path: (id) => `/api/entities/${id}/books/${bookId}` })],
    ];

    it.each(routes)('%s', async (_label, route) => {
      await checkAccessMatrix(t, world, route());
    });
  });
});
