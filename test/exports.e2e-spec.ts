import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { Client } from 'pg';
import { FixedClock } from '../src/platform/clock/clock';
import { checkAccessMatrix } from './harness/access-matrix';
import { tableLockWaiters, waitUntil } from './harness/db-checks';
import { binary, csvAmount, readCsv, readXlsx, xlsxDate } from './harness/export-files';
import { buildLedgerFixture, LedgerFixture } from './harness/ledger-fixture';
import type { TestApp } from './harness/test-app';
import { createEntity, createWorldApp, freshEntity, mintKey, type Agent, type World } from './harness/world';

/**
 * Issue 38 (D93): every report and list as CSV and XLSX. Each file is read back with a real
 * reader (csv-parse, exceljs) and compared, row by row and figure by figure, with the route's JSON
 * answer; the Libro Mayor's JSON is checked against figures computed here from the lines.
 */
type Row = Record<string, unknown>;

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
/** OWASP's formula starts, each opening a memo or a line description. */
const HOSTILE = ['=HYPERLINK("http://evil.example","x")', '+SUM(1,2)', '-2+3', '@cmd', '\tTabbed', '\rReturned'];
/** The text a spreadsheet must show for a text cell: quoted when it could start a formula. */
const shown = (text: string | null | undefined) => (text === null || text === undefined ? null : /^[=+\-@\t\r]/.test(text) ? `'${text}` : text);
const csvText = (text: string | null | undefined) => shown(text) ?? '';

describe('exports (D93)', () => {
  let t: TestApp;
  let world: World;
  let staff: Agent;
  let f: LedgerFixture;
  let usdEntity: string;
  let usdCash: string;
  let usdSales: string;

  beforeAll(async () => {
    ({ t, world, staff } = await createWorldApp({ clock: new FixedClock(new Date('2026-06-15T15:00:00Z')) }));
    f = await buildLedgerFixture(staff, await freshEntity(world));
    // Entries whose memo and line descriptions start like formulas, in February and May.
    for (const [i, text] of HOSTILE.entries()) {
      await staff
        .post(`${base()}/ledger/entries`)
        .send({
          id: randomUUID(),
          entryDate: i % 2 === 0 ? '2026-02-10' : '2026-05-20',
          memo: text,
          newLedgerEntryLines: [
            { side: 'debit', ledgerAccountId: f.receivable, amount: 1000 + i, partnerId: f.partnerId, description: HOSTILE[(i + 1) % HOSTILE.length] },
            { side: 'credit', ledgerAccountId: f.sales, amount: 1000 + i, description: 'Venta, "con" comillas\ny salto' },
          ],
        })
        .expect(201);
    }
    // A USD Entity: amounts in cents, written 12.34.
    usdEntity = (await createEntity(staff, world.organizationId, { currency: 'USD', country: 'US', taxId: '12-3456789' })).id;
    const account = async (code: string, type: string) =>
      (await staff.post(`/api/entities/${usdEntity}/ledger/accounts`).send({ id: randomUUID(), name: `Account ${code}`, code, type, tracking: 'balance', subtype: null }).expect(201)).body.account.id as string;
    usdCash = await account('1000', 'asset');
    usdSales = await account('4000', 'income');
    for (const [date, amount, side] of [
      ['2026-03-01', 1234, 'debit'],
      ['2026-03-02', 1239, 'credit'],
      ['2026-04-01', 5, 'credit'],
    ] as const) {
      await staff
        .post(`/api/entities/${usdEntity}/ledger/entries`)
        .send({
          id: randomUUID(),
          entryDate: date,
          memo: `USD ${amount}`,
          newLedgerEntryLines: [
            { side, ledgerAccountId: usdCash, amount },
            { side: side === 'debit' ? 'credit' : 'debit', ledgerAccountId: usdSales, amount },
          ],
        })
        .expect(201);
    }
  }, 120_000);
  afterAll(() => t.close());

  const base = (entityId = f.entityId) => `/api/entities/${entityId}`;

  async function file(path: string, query: Record<string, unknown>, format: 'csv' | 'xlsx', agent: Agent = staff) {
    const res = await agent.get(path).query({ ...query, format }).buffer(true).parse(binary);
    expect({ status: res.status, code: res.status === 200 ? undefined : (JSON.parse(res.body.toString()) as Row).code }).toEqual({ status: 200, code: undefined });
    expect(res.headers['content-type']).toBe(format === 'csv' ? 'text/csv; charset=utf-8' : XLSX);
    expect(res.headers['cache-control']).toBe('no-store');
    return res;
  }

  async function csvOf(path: string, query: Record<string, unknown>, fileName?: string) {
    const res = await file(path, query, 'csv');
    if (fileName) expect(res.headers['content-disposition']).toBe(`attachment; filename="${fileName}.csv"; filename*=UTF-8''${fileName}.csv`);
    return readCsv(res.body as Buffer);
  }

  async function xlsxOf(path: string, query: Record<string, unknown>, fileName?: string) {
    const res = await file(path, query, 'xlsx');
    if (fileName) expect(res.headers['content-disposition']).toBe(`attachment; filename="${fileName}.xlsx"; filename*=UTF-8''${fileName}.xlsx`);
    return readXlsx(res.body as Buffer);
  }

  /** Every row of a paged route, following its cursor. */
  async function allPages(path: string, query: Record<string, unknown>, list: string, cursorOf: (body: Row) => string | null) {
    const rows: Row[] = [];
    let cursor: string | null = null;
    do {
      const res = await staff.get(path).query({ ...query, ...(cursor ? { cursor } : {}) });
      expect(res.status).toBe(200);
      rows.push(...(res.body[list] as Row[]));
      cursor = cursorOf(res.body);
    } while (cursor);
    return rows;
  }

  describe('the journal (the Libro Diario)', () => {
    const query = { from: '2026-01-01', to: '2026-06-30' };
    const journalPath = () => `${base()}/reports/journal`;
    const expected = (r: Row, kind: 'csv' | 'xlsx') => ({
      entryId: r.entryId,
      entryDate: kind === 'csv' ? r.entryDate : xlsxDate(r.entryDate as string),
      memo: kind === 'csv' ? csvText(r.memo as string) : shown(r.memo as string),
      status: r.status,
      bookId: kind === 'csv' ? (r.bookId ?? '') : r.bookId,
      lineId: r.lineId,
      debit: r.side === 'debit' ? (kind === 'csv' ? csvAmount(r.amount as number, 0) : r.amount) : kind === 'csv' ? '' : null,
      credit: r.side === 'credit' ? (kind === 'csv' ? csvAmount(r.amount as number, 0) : r.amount) : kind === 'csv' ? '' : null,
      accountId: r.accountId,
      accountCode: r.accountCode,
      accountName: r.accountName,
      partnerId: kind === 'csv' ? (r.partnerId ?? '') : r.partnerId,
      partnerName: kind === 'csv' ? (r.partnerName ?? '') : r.partnerName,
      description: kind === 'csv' ? csvText(r.description as string | null) : shown(r.description as string | null),
    });

    it('as CSV: every row of the range (no page), one per JSON row, every field, the side as debit and credit', async () => {
      const json = await allPages(journalPath(), { ...query, limit: 3 }, 'rows', (b) => b.nextCursor as string | null);
      expect(json.length).toBeGreaterThan(12);
      const csv = await csvOf(journalPath(), { ...query, limit: 3 }, 'journal_76086428-5_2026-01-01_2026-06-30');
      expect(csv.header).toEqual(['entryId', 'entryDate', 'memo', 'status', 'bookId', 'lineId', 'debit', 'credit', 'accountId', 'accountCode', 'accountName', 'partnerId', 'partnerName', 'description']);
      expect(csv.rows).toEqual(json.map((r) => expected(r, 'csv')));
      // RFC 4180 on the wire: a field with a quote, a comma or a line break is quoted, its quotes doubled.
      expect(csv.raw).toContain('"Venta, ""con"" comillas\ny salto"');
    });

    it('as XLSX: the same rows, amounts as numbers, dates as date cells', async () => {
      const json = await allPages(journalPath(), { ...query, limit: 100 }, 'rows', (b) => b.nextCursor as string | null);
      const xlsx = await xlsxOf(journalPath(), query, 'journal_76086428-5_2026-01-01_2026-06-30');
      expect(xlsx.rows).toEqual(json.map((r) => expected(r, 'xlsx')));
      expect(xlsx.formats.entryDate).toBe('yyyy-mm-dd');
    });

    it('filters as the JSON does (search, range) and names an open range in its file name', async () => {
      const json = await allPages(journalPath(), { search: 'venta', limit: 100 }, 'rows', (b) => b.nextCursor as string | null);
      expect(json.length).toBe(HOSTILE.length);
      const csv = await csvOf(journalPath(), { search: 'venta' }, 'journal_76086428-5_all');
      expect(csv.rows).toEqual(json.map((r) => expected(r, 'csv')));
      await csvOf(journalPath(), { from: '2026-05-01' }, 'journal_76086428-5_2026-05-01_end');
    });
  });

  it('neutralises formula injection in both formats: text cells that begin with = + - @ tab or CR get a quote, numbers never', async () => {
    const path = `${base()}/reports/journal`;
    const json = await allPages(path, { limit: 100 }, 'rows', (b) => b.nextCursor as string | null);
    const csv = await csvOf(path, {});
    const xlsx = await xlsxOf(path, {});
    // Every text cell the JSON holds with a formula start, in both files, quoted; the service
    // trims memos, so the tab and CR starts live in the line descriptions.
    const starts = new Set<string>();
    let cells = 0;
    json.forEach((row, i) => {
      for (const field of ['memo', 'description']) {
        const text = row[field] as string | null;
        if (!text || !/^[=+\-@\t\r]/.test(text)) continue;
        starts.add(text[0]);
        cells++;
        expect([csv.rows[i][field], xlsx.rows[i][field]]).toEqual([`'${text}`, `'${text}`]);
      }
    });
    expect([...starts].sort()).toEqual(['\t', '\r', '+', '-', '=', '@'].sort());
    expect(cells).toBeGreaterThanOrEqual(HOSTILE.length + 4);
    // A negative amount is a number, not text: the general ledger's running balance of the sales account.
    const ledger = await csvOf(`${base()}/ledger/general-ledger`, { accountId: f.sales });
    expect(ledger.rows.some((r) => r.runningBalance.startsWith('-'))).toBe(true);
    expect(ledger.rows.some((r) => r.runningBalance.startsWith("'"))).toBe(false);
    const ledgerXlsx = await xlsxOf(`${base()}/ledger/general-ledger`, { accountId: f.sales });
    expect(ledgerXlsx.rows.every((r) => typeof r.runningBalance === 'number')).toBe(true);
    // The raw sheet holds no formula element at all.
    const raw = (await file(path, {}, 'xlsx')).body as Buffer;
    const { inflateRawSync } = await import('node:zlib');
    expect(sheetXml(raw, inflateRawSync)).not.toContain('<f>');
  });

  it('the general ledger: every line of the range (no cursor), with its running balance, as the JSON pages give them', async () => {
    const query = { accountId: f.receivable, from: '2026-03-01', to: '2026-06-30' };
    const path = `${base()}/ledger/general-ledger`;
    const json = await allPages(path, { ...query, limit: 2 }, 'lines', (b) => b.nextCursor as string | null);
    expect(json.length).toBeGreaterThan(3);
    const csv = await csvOf(path, { ...query, limit: 2 }, 'general-ledger_76086428-5_2026-03-01_2026-06-30');
    expect(csv.header).toEqual(['lineId', 'entryId', 'entryDate', 'memo', 'debit', 'credit', 'partnerId', 'description', 'runningBalance']);
    expect(csv.rows).toEqual(
      json.map((l) => ({
        lineId: l.lineId,
        entryId: l.entryId,
        entryDate: l.entryDate,
        memo: csvText(l.memo as string),
        debit: l.side === 'debit' ? String(l.amount) : '',
        credit: l.side === 'credit' ? String(l.amount) : '',
        partnerId: l.partnerId ?? '',
        description: csvText(l.description as string | null),
        runningBalance: String(l.runningBalance),
      })),
    );
    const xlsx = await xlsxOf(path, query);
    expect(xlsx.rows.map((r) => [r.lineId, r.entryDate, r.runningBalance])).toEqual(json.map((l) => [l.lineId, xlsxDate(l.entryDate as string), l.runningBalance]));
  });

  describe('the Libro Mayor (GET reports/general-ledger-book)', () => {
    const range = { from: '2026-05-01', to: '2026-06-30' };

    /** Computed here from the lines: every account with a live line in the range, by code, debit-positive balances from inception. */
    async function expectedBook(entityId: string, from: string, to: string) {
      const rows = await t.sql<{ account_id: string; code: string; name: string; line_id: string; entry_id: string; entry_date: string; memo: string; side: string; amount: string; partner_id: string | null; description: string | null }>(
        `SELECT l.account_id, a.code, a.name, l.id AS line_id, l.entry_id, to_char(l.entry_date, 'YYYY-MM-DD') AS entry_date, e.memo, l.side, l.amount, l.partner_id, l.description
           FROM ledger_lines l JOIN ledger_entries e ON e.entity_id = l.entity_id AND e.id = l.entry_id JOIN ledger_accounts a ON a.entity_id = l.entity_id AND a.id = l.account_id
          WHERE l.entity_id = $1 AND l.status IN ('active', 'reversed') AND l.book_id IS NULL AND l.entry_date <= $2
          ORDER BY a.code, l.entry_date, l.entry_id, l.id`,
        [entityId, to],
      );
      const accounts = new Map<string, { accountId: string; code: string; name: string; openingBalance: number; lines: Row[]; closingBalance: number }>();
      for (const r of rows) {
        const a = accounts.get(r.account_id) ?? { accountId: r.account_id, code: r.code, name: r.name, openingBalance: 0, lines: [], closingBalance: 0 };
        accounts.set(r.account_id, a);
        const signed = r.side === 'debit' ? Number(r.amount) : -Number(r.amount);
        a.closingBalance += signed;
        if (r.entry_date < from) a.openingBalance += signed;
        else a.lines.push({ lineId: r.line_id, entryId: r.entry_id, entryDate: r.entry_date, memo: r.memo, side: r.side, amount: Number(r.amount), partnerId: r.partner_id, description: r.description, runningBalance: a.closingBalance });
      }
      return [...accounts.values()].filter((a) => a.lines.length > 0);
    }

    it('answers every account with a line in the range, by code, with its opening balance, lines and closing balance, streamed', async () => {
      const res = await staff.get(`${base()}/reports/general-ledger-book`).query(range);
      expect(res.status).toBe(200);
      expect(res.headers['transfer-encoding']).toBe('chunked');
      const accounts = await expectedBook(f.entityId, range.from, range.to);
      expect(accounts.map((a) => a.code)).toEqual(['1101', '1105', '4101']);
      expect(res.body).toEqual({ ...range, currency: 'CLP', bookId: null, accounts });
      expect(Object.keys(res.body.accounts[0])).toEqual(['accountId', 'code', 'name', 'openingBalance', 'lines', 'closingBalance']);
      // Opening balances come from the months before (February's hostile entries) and the days before `from`.
      const mid = await staff.get(`${base()}/reports/general-ledger-book`).query({ from: '2026-02-11', to: '2026-05-31' });
      expect(mid.body.accounts).toEqual(await expectedBook(f.entityId, '2026-02-11', '2026-05-31'));
      expect(mid.body.accounts.find((a: Row) => a.accountId === f.receivable).openingBalance).toBe(1000 + 1002 + 1004);
    });

    it('answers no account for a range without lines, and refuses to before from (400) and a Book on an Entity without Books (404)', async () => {
      const empty = await staff.get(`${base()}/reports/general-ledger-book`).query({ from: '2026-06-10', to: '2026-06-12' });
      expect(empty.body).toEqual({ from: '2026-06-10', to: '2026-06-12', currency: 'CLP', bookId: null, accounts: [] });
      const reversed = await staff.get(`${base()}/reports/general-ledger-book`).query({ from: '2026-06-10', to: '2026-06-01' });
      expect({ status: reversed.status, code: reversed.body.code }).toEqual({ status: 400, code: 'VALIDATION_ERROR' });
      const book = await staff.get(`${base()}/reports/general-ledger-book`).query({ ...range, bookId: randomUUID() });
      expect({ status: book.status, code: book.body.code }).toEqual({ status: 404, code: 'BOOK_NOT_FOUND_ERROR' });
      const missing = await staff.get(`${base()}/reports/general-ledger-book`).query({ from: '2026-06-10' });
      expect({ status: missing.status, code: missing.body.code }).toEqual({ status: 400, code: 'VALIDATION_ERROR' });
    });

    it('exports per account an opening row, its lines and a closing row, every figure as in the JSON', async () => {
      const json = (await staff.get(`${base()}/reports/general-ledger-book`).query(range)).body as { accounts: Array<Row & { lines: Row[] }> };
      const rows: Row[] = json.accounts.flatMap((a): Row[] => [
        { accountId: a.accountId, code: a.code, name: a.name, row: 'opening', balance: a.openingBalance },
        ...a.lines.map((l) => ({ accountId: a.accountId, code: a.code, name: a.name, row: 'line', lineId: l.lineId, entryDate: l.entryDate, memo: l.memo, side: l.side, amount: l.amount, partnerId: l.partnerId, description: l.description, balance: l.runningBalance })),
        { accountId: a.accountId, code: a.code, name: a.name, row: 'closing', balance: a.closingBalance },
      ]);
      const csv = await csvOf(`${base()}/reports/general-ledger-book`, range, 'general-ledger-book_76086428-5_2026-05-01_2026-06-30');
      expect(csv.header).toEqual(['accountId', 'code', 'name', 'row', 'lineId', 'entryId', 'entryDate', 'memo', 'debit', 'credit', 'partnerId', 'description', 'balance']);
      expect(csv.rows.map((r) => [r.accountId, r.code, r.name, r.row, r.lineId, r.entryDate, r.memo, r.debit, r.credit, r.partnerId, r.description, r.balance])).toEqual(
        rows.map((r) => [
          r.accountId,
          r.code,
          r.name,
          r.row,
          r.lineId ?? '',
          r.entryDate ?? '',
          csvText(r.memo as string | undefined),
          r.side === 'debit' ? String(r.amount) : '',
          r.side === 'credit' ? String(r.amount) : '',
          r.partnerId ?? '',
          csvText(r.description as string | null | undefined),
          String(r.balance),
        ]),
      );
      const xlsx = await xlsxOf(`${base()}/reports/general-ledger-book`, range);
      expect(xlsx.rows.map((r) => [r.accountId, r.row, r.lineId, r.entryDate, r.debit, r.credit, r.balance])).toEqual(
        rows.map((r) => [r.accountId, r.row, r.lineId ?? null, xlsxDate(r.entryDate as string | undefined), r.side === 'debit' ? r.amount : null, r.side === 'credit' ? r.amount : null, r.balance]),
      );
    });

    it('passes the access matrix', async () => {
      await checkAccessMatrix(t, world, { method: 'get', path: (entityId) => `/api/entities/${entityId}/reports/general-ledger-book?from=2026-01-01&to=2026-06-30` });
      await checkAccessMatrix(t, world, { method: 'get', path: (entityId) => `/api/entities/${entityId}/reports/general-ledger-book?from=2026-01-01&to=2026-06-30&format=csv` });
    });
  });

  it('writes amounts in major units of the currency, exactly: USD 1234 cents is 12.34, -5 cents -0.05', async () => {
    const path = `${base(usdEntity)}/ledger/general-ledger`;
    const csv = await csvOf(path, { accountId: usdCash }, 'general-ledger_12-3456789_all');
    expect(csv.rows.map((r) => [r.debit, r.credit, r.runningBalance])).toEqual([
      ['12.34', '', '12.34'],
      ['', '12.39', '-0.05'],
      ['', '0.05', '-0.10'],
    ]);
    const xlsx = await xlsxOf(path, { accountId: usdCash });
    expect(xlsx.rows.map((r) => [r.debit, r.credit, r.runningBalance])).toEqual([
      [12.34, null, 12.34],
      [null, 12.39, -0.05],
      [null, 0.05, -0.1],
    ]);
    expect(xlsx.formats.debit).toBe('#,##0.00');
    const balance = await csvOf(`${base(usdEntity)}/reports/balance-sheet`, { exerciseStart: '2026-01-01', cutoffDate: '2026-06-30' });
    expect(balance.rows.find((r) => r.row === 'account' && r.code === '1000')).toMatchObject({ section: 'assets', amount: '-0.10' });
    // The journal and the Libro Mayor, whose CSV the database writes: the same figures.
    const journal = await csvOf(`${base(usdEntity)}/reports/journal`, { from: '2026-01-01', to: '2026-06-30' });
    // Within an entry the lines come by id: compared by date and code.
    const byDateAndCode = (a: string[], b: string[]) => `${a[0]}${a[1]}`.localeCompare(`${b[0]}${b[1]}`);
    expect(journal.rows.map((r) => [r.entryDate, r.accountCode, r.debit, r.credit]).sort(byDateAndCode)).toEqual([
      ['2026-03-01', '1000', '12.34', ''],
      ['2026-03-01', '4000', '', '12.34'],
      ['2026-03-02', '1000', '', '12.39'],
      ['2026-03-02', '4000', '12.39', ''],
      ['2026-04-01', '1000', '', '0.05'],
      ['2026-04-01', '4000', '0.05', ''],
    ]);
    const book = await csvOf(`${base(usdEntity)}/reports/general-ledger-book`, { from: '2026-03-02', to: '2026-06-30' });
    expect(book.rows.map((r) => [r.code, r.row, r.debit, r.credit, r.balance])).toEqual([
      ['1000', 'opening', '', '', '12.34'],
      ['1000', 'line', '', '12.39', '-0.05'],
      ['1000', 'line', '', '0.05', '-0.10'],
      ['1000', 'closing', '', '', '-0.10'],
      ['4000', 'opening', '', '', '-12.34'],
      ['4000', 'line', '12.39', '', '0.05'],
      ['4000', 'line', '0.05', '', '0.10'],
      ['4000', 'closing', '', '', '0.10'],
    ]);
  });

  describe('tree reports: one row per group, account and total with its section and code, and one per named figure', () => {
    /** Every group, account, section total and named figure of a statement body, as [section, row, id or name, amount]. */
    function figuresOf(body: Row): Array<[string, string, string, number]> {
      const out: Array<[string, string, string, number]> = [];
      const walk = (section: string, node: Row) => {
        for (const g of (node.groups as Row[] | undefined) ?? []) {
          out.push([section, 'group', g.groupId as string, g.total as number]);
          walk(section, g);
        }
        for (const a of node.accounts as Row[]) out.push([section, 'account', (a.accountId as string) ?? (a.code as string), a.balance as number]);
      };
      for (const [key, value] of Object.entries(body)) {
        if (typeof value === 'number') out.push(['', 'figure', key, value]);
        else if (value && typeof value === 'object' && 'total' in value && 'accounts' in value) {
          walk(key, value as Row);
          for (const [name, v] of Object.entries(value)) if (typeof v === 'number' && name !== 'total') out.push([key, 'figure', name, v]);
          out.push([key, 'total', 'total', (value as Row).total as number]);
        } else if (key === 'totals') for (const [name, v] of Object.entries(value as Row)) out.push([key, 'figure', name, v as number]);
      }
      return out;
    }
    const fileFigures = (rows: Array<Record<string, unknown>>, amount: (v: unknown) => number) =>
      rows.map((r) => [r.section ?? '', r.row, r.row === 'group' || r.row === 'account' ? r.id || r.code : r.name, amount(r.amount)]);

    it.each([
      ['balance sheet', 'reports/balance-sheet', { exerciseStart: '2026-01-01', cutoffDate: '2026-06-30' }, 'balance-sheet_76086428-5_2026-01-01_2026-06-30'],
      ['income statement', 'reports/income-statement', { from: '2026-01-01', to: '2026-06-30' }, 'income-statement_76086428-5_2026-01-01_2026-06-30'],
    ])('%s: as CSV and XLSX, every figure of the JSON in its order', async (_label, route, query, fileName) => {
      const json = (await staff.get(`${base()}/${route}`).query(query).expect(200)).body as Row;
      const expected = figuresOf(json);
      if (route.endsWith('balance-sheet')) expect(expected.some(([, row]) => row === 'group')).toBe(true);
      const csv = await csvOf(`${base()}/${route}`, query, fileName);
      expect(csv.header).toEqual(['section', 'row', 'level', 'code', 'name', 'id', 'amount']);
      expect(fileFigures(csv.rows, Number)).toEqual(expected);
      const xlsx = await xlsxOf(`${base()}/${route}`, query, fileName);
      expect(fileFigures(xlsx.rows, (v) => v as number)).toEqual(expected);
      // Groups and accounts carry their code: the group's codePrefix, the account's code.
      expect(csv.rows.filter((r) => r.row === 'account').every((r) => /^\d{4}$/.test(r.code))).toBe(true);
    });

    it('income statement by dimension: each value statement, then the unassigned one', async () => {
      const query = { dimensionId: f.dimensionId, from: '2026-01-01', to: '2026-06-30' };
      const json = (await staff.get(`${base()}/reports/income-statement-by-dimension`).query(query).expect(200)).body as { columns: Array<Row & { statement: Row }>; unassigned: Row };
      const expected = [...json.columns.flatMap((c) => figuresOf(c.statement).map((x) => [c.dimensionValueId, ...x])), ...figuresOf(json.unassigned).map((x) => [null, ...x])];
      const xlsx = await xlsxOf(`${base()}/reports/income-statement-by-dimension`, query);
      expect(xlsx.rows.map((r) => [r.dimensionValueId, ...fileFigures([r], (v) => v as number)[0]])).toEqual(expected);
    });

    it('eight-column balance: the rows, then subtotals, the result and totals, every column', async () => {
      const query = { exerciseStart: '2026-01-01', cutoffDate: '2026-06-30' };
      const json = (await staff.get(`${base()}/ledger/reports/eight-column-balance`).query(query).expect(200)).body as { rows: Row[]; subtotals: Row; result: { kind: string; amount: number }; totals: Row };
      const columns = ['debit', 'credit', 'debtorBalance', 'creditorBalance', 'asset', 'liability', 'loss', 'profit'];
      // Hand-placed result row (D53): a profit goes to loss and liability.
      expect(json.result.kind).toBe('profit');
      const result = { debit: 0, credit: 0, debtorBalance: 0, creditorBalance: 0, asset: 0, liability: json.result.amount, loss: json.result.amount, profit: 0 };
      const expected = [...json.rows.map((r) => ['account', r.accountId, ...columns.map((c) => r[c])]), ['subtotals', null, ...columns.map((c) => json.subtotals[c])], ['result', null, ...columns.map((c) => result[c as keyof typeof result])], ['totals', null, ...columns.map((c) => json.totals[c])]];
      const xlsx = await xlsxOf(`${base()}/ledger/reports/eight-column-balance`, query, 'eight-column-balance_76086428-5_2026-01-01_2026-06-30');
      expect(xlsx.rows.map((r) => [r.row, r.accountId, ...columns.map((c) => r[c])])).toEqual(expected);
      const csv = await csvOf(`${base()}/ledger/reports/eight-column-balance`, query);
      expect(csv.rows.map((r) => [r.row, r.accountId || null, ...columns.map((c) => Number(r[c]))])).toEqual(expected);
      // The totals row balances: debit = credit, asset = liability, loss = profit.
      const totals = csv.rows[csv.rows.length - 1];
      expect([totals.debit, totals.asset, totals.loss]).toEqual([totals.credit, totals.liability, totals.profit]);
    });

    it('partner ledger: per partner an opening row, its lines and a closing row', async () => {
      const query = { accountId: f.receivable, from: '2026-03-01', to: '2026-06-30', includeUnassigned: true };
      const json = (await staff.get(`${base()}/ledger/partner-ledger`).query(query).expect(200)).body as { partners: Array<Row & { lines: Row[] }> };
      const expected = json.partners.flatMap((p) => [
        [p.partnerId, 'opening', null, p.openingBalance, null],
        ...p.lines.map((l) => [p.partnerId, 'line', l.lineId, l.runningBalance, l.openAmount]),
        [p.partnerId, 'closing', null, p.closingBalance, null],
      ]);
      const xlsx = await xlsxOf(`${base()}/ledger/partner-ledger`, query);
      expect(xlsx.rows.map((r) => [r.partnerId, r.row, r.lineId, r.balance, r.openAmount])).toEqual(expected);
    });

    it('home and revenue realization: one row per figure', async () => {
      const home = (await staff.get(`${base()}/reports/home`).expect(200)).body as Row & { dailyBalances: Row[]; monthlyIncome: Row[] };
      const csv = await csvOf(`${base()}/reports/home`, {}, 'home_76086428-5_2026-06-15');
      expect(csv.rows.filter((r) => r.section === 'dailyBalances').map((r) => [r.item, Number(r.amount)])).toEqual(home.dailyBalances.map((d) => [d.date, d.balance]));
      expect(csv.rows.filter((r) => r.section === 'monthlyIncome' && r.figure === 'income').map((r) => [r.item, Number(r.amount)])).toEqual(home.monthlyIncome.map((m) => [m.month, m.income]));
      expect(csv.rows.find((r) => r.section === 'unreconciledMovements')).toMatchObject({ count: String(home.unreconciledMovements), amount: '' });
      const query = { from: '2026-01-01', to: '2026-06-30' };
      const revenue = (await staff.get(`${base()}/reports/revenue-realization`).query(query).expect(200)).body as { totals: Row; months: Row[]; invoices: Row[] };
      const xlsx = await xlsxOf(`${base()}/reports/revenue-realization`, query, 'revenue-realization_76086428-5_2026-01-01_2026-06-30');
      const figures = ['recognized', 'billed', 'collected', 'outstanding'];
      expect(xlsx.rows.map((r) => [r.row, r.month, ...figures.map((k) => r[k])])).toEqual([
        ['totals', null, ...figures.map((k) => revenue.totals[k])],
        ...revenue.months.map((m) => ['month', m.month, ...figures.map((k) => m[k])]),
        ...revenue.invoices.map((i) => ['invoice', null, ...figures.map((k) => i[k])]),
      ]);
    });
  });

  it('consolidated balance sheet and income statement (D91): a row per account by code, each section total and named figure', async () => {
    // f's Entity with a child of the same currency: combined by code.
    const child = (await createEntity(staff, world.organizationId)).id;
    await staff.patch(`/api/entities/${child}/parent`).send({ parentEntityId: f.entityId }).expect(200);
    const account = (await staff.post(`/api/entities/${child}/ledger/accounts`).send({ id: randomUUID(), name: 'Ventas hija', code: '4101', type: 'income', tracking: 'balance', subtype: null }).expect(201)).body.account.id as string;
    const cash = (await staff.post(`/api/entities/${child}/ledger/accounts`).send({ id: randomUUID(), name: 'Caja hija', code: '1101', type: 'asset', tracking: 'balance', subtype: null }).expect(201)).body.account.id as string;
    await staff
      .post(`/api/entities/${child}/ledger/entries`)
      .send({ id: randomUUID(), entryDate: '2026-03-03', memo: 'Venta hija', newLedgerEntryLines: [{ side: 'debit', ledgerAccountId: cash, amount: 777 }, { side: 'credit', ledgerAccountId: account, amount: 777 }] })
      .expect(201);
    for (const [route, query] of [
      ['consolidated-balance-sheet', { exerciseStart: '2026-01-01', cutoffDate: '2026-06-30' }],
      ['consolidated-income-statement', { from: '2026-01-01', to: '2026-06-30' }],
    ] as const) {
      const json = (await staff.get(`${base()}/reports/${route}`).query(query).expect(200)).body as Row;
      const expected: Array<[string, string, string, number]> = [];
      for (const [key, value] of Object.entries(json)) {
        if (typeof value === 'number') expected.push(['', 'figure', key, value]);
        else if (value && typeof value === 'object' && 'total' in value && 'accounts' in value) {
          for (const a of (value as { accounts: Row[] }).accounts) expected.push([key, 'account', a.code as string, a.balance as number]);
          for (const [name, v] of Object.entries(value)) if (typeof v === 'number' && name !== 'total') expected.push([key, 'figure', name, v]);
          expected.push([key, 'total', 'total', (value as Row).total as number]);
        } else if (key === 'totals') for (const [name, v] of Object.entries(value as Row)) expected.push([key, 'figure', name, v as number]);
      }
      expect(expected.some(([, row, code]) => row === 'account' && code === (route.includes('income') ? '4101' : '1101'))).toBe(true);
      const csv = await csvOf(`${base()}/reports/${route}`, query, `${route}_76086428-5_${Object.values(query).join('_')}`);
      expect(csv.rows.map((r) => [r.section, r.row, r.row === 'account' ? r.code : r.name, Number(r.amount)])).toEqual(expected);
      const xlsx = await xlsxOf(`${base()}/reports/${route}`, query);
      expect(xlsx.rows.map((r) => [r.section ?? '', r.row, r.row === 'account' ? r.code : r.name, r.amount])).toEqual(expected);
    }
  });

  describe('the lists: the whole filtered range (no cursor), a row per JSON row, a column per field', () => {
    it('ledger lines', async () => {
      const query = { from: '2026-02-01', to: '2026-06-30' };
      const json = (await staff.get(`${base()}/ledger/lines`).query(query).expect(200)).body as Row[];
      const csv = await csvOf(`${base()}/ledger/lines`, query, 'ledger-lines_76086428-5_2026-02-01_2026-06-30');
      expect(csv.header).toEqual(['id', 'entryId', 'entryDate', 'memo', 'status', 'bookId', 'ledgerAccountId', 'debit', 'credit', 'description', 'partnerId', 'transactionCurrency', 'transactionAmount', 'exchangeRate', 'dimensionValues', 'openAmount']);
      expect(csv.rows.map((r) => [r.id, r.entryDate, r.memo, r.debit, r.credit, r.description, r.openAmount, r.dimensionValues])).toEqual(
        json.map((l) => [
          l.id,
          l.entryDate,
          csvText(l.memo as string),
          l.side === 'debit' ? String(l.amount) : '',
          l.side === 'credit' ? String(l.amount) : '',
          csvText(l.description as string | null),
          l.openAmount === null ? '' : String(l.openAmount),
          (l.dimensionValues as Row[]).map((v) => v.code).join(' '),
        ]),
      );
      const xlsx = await xlsxOf(`${base()}/ledger/lines`, query);
      expect(xlsx.rows.map((r) => [r.id, r.debit, r.credit, r.openAmount])).toEqual(json.map((l) => [l.id, l.side === 'debit' ? l.amount : null, l.side === 'credit' ? l.amount : null, l.openAmount]));
    });

    it('ledger entries: every page in one file, each entry with its line count and its debit and credit sums', async () => {
      const json = await allPages(`${base()}/ledger/entries`, { limit: 2, status: 'all' }, 'entries', (b) => b.nextCursor as string | null);
      expect(json.length).toBeGreaterThan(8);
      const csv = await csvOf(`${base()}/ledger/entries`, { limit: 2, status: 'all' }, 'ledger-entries_76086428-5_all');
      // A column per field: the entityId too (D93).
      expect(csv.header.slice(0, 2)).toEqual(['id', 'entityId']);
      expect(new Set(csv.rows.map((r) => r.entityId))).toEqual(new Set([f.entityId]));
      const total = (e: Row, side: string) => String((e.lines as Row[]).filter((l) => l.side === side).reduce((sum, l) => sum + (l.amount as number), 0));
      expect(csv.rows.map((r) => [r.id, r.entryDate, r.status, r.source, r.createdAt, r.lineCount, r.debit, r.credit])).toEqual(json.map((e) => [e.id, e.entryDate, e.status, e.source, e.createdAt, String((e.lines as Row[]).length), total(e, 'debit'), total(e, 'credit')]));
      const xlsx = await xlsxOf(`${base()}/ledger/entries`, { status: 'all' });
      expect(xlsx.rows.map((r) => [r.id, r.createdAt, r.lineCount])).toEqual(json.map((e) => [e.id, new Date(e.createdAt as string), (e.lines as Row[]).length]));
    });

    it('invoices, unpaged and paged', async () => {
      const json = (await staff.get(`${base()}/invoices`).expect(200)).body as Row[];
      expect(json.length).toBeGreaterThan(0);
      const figures = (i: Row) => [i.id, i.documentNumber, i.issueDate, i.netAmount, i.taxAmount, i.totalAmount, i.bookStatus];
      const csv = await csvOf(`${base()}/invoices`, {}, 'invoices_76086428-5_all');
      expect(csv.rows.map((r) => r.entityId)).toEqual(json.map((i) => i.entityId));
      expect(csv.rows.map((r) => [r.id, r.documentNumber, r.issueDate, Number(r.netAmount), Number(r.taxAmount), Number(r.totalAmount), r.bookStatus])).toEqual(json.map(figures));
      const xlsx = await xlsxOf(`${base()}/invoices/pages`, { limit: 1 });
      expect(xlsx.rows.map((r) => [r.id, r.documentNumber, r.issueDate, r.netAmount, r.taxAmount, r.totalAmount, r.bookStatus])).toEqual(json.map((i) => [...figures(i).slice(0, 2), xlsxDate(i.issueDate as string), ...figures(i).slice(3)]));
    });

    it('bank movements', async () => {
      const path = `${base()}/bank-accounts/${f.bankAccountId}/movements`;
      const json = await allPages(path, { limit: 1 }, 'rows', (b) => b.nextCursor as string | null);
      expect(json.length).toBeGreaterThan(0);
      const csv = await csvOf(path, { limit: 1 }, 'bank-movements_76086428-5_all');
      expect(csv.rows.map((r) => r.entityId)).toEqual(json.map((m) => m.entityId));
      expect(csv.rows.map((r) => [r.id, r.movementDate, r.description, r.debit, r.credit])).toEqual(
        json.map((m) => [m.id, m.movementDate, csvText(m.description as string), m.side === 'debit' ? String(m.amount) : '', m.side === 'credit' ? String(m.amount) : '']),
      );
      const missing = await staff.get(`${base()}/bank-accounts/${randomUUID()}/movements`).query({ format: 'xlsx' });
      expect({ status: missing.status, code: missing.body.code }).toEqual({ status: 404, code: 'BANK_ACCOUNT_NOT_FOUND_ERROR' });
    });
  });

  it.each([
    ['reports/journal', {}],
    ['reports/general-ledger-book', { from: '2026-01-01', to: '2026-06-30' }],
    ['reports/balance-sheet', { exerciseStart: '2026-01-01', cutoffDate: '2026-06-30' }],
    ['reports/home', {}],
    ['ledger/general-ledger', { accountId: randomUUID() }],
    ['ledger/partner-ledger', { accountId: randomUUID(), from: '2026-01-01', to: '2026-06-30' }],
    ['ledger/entries', {}],
    ['ledger/lines', {}],
    ['invoices', {}],
    ['invoices/pages', {}],
    ['reports/revenue-realization', { from: '2026-01-01', to: '2026-06-30' }],
    ['reports/consolidated-balance-sheet', { exerciseStart: '2026-01-01', cutoffDate: '2026-06-30' }],
  ])('refuses an unknown format on %s with 400 VALIDATION_ERROR', async (route, query) => {
    for (const format of ['pdf', 'CSV', '']) {
      const res = await staff.get(`${base()}/${route}`).query({ ...query, format });
      expect({ status: res.status, code: res.body.code }).toEqual({ status: 400, code: 'VALIDATION_ERROR' });
    }
  });

  it('keeps a refusal before the file: 404 for an unknown account, as an error envelope in JSON', async () => {
    const res = await staff.get(`${base()}/ledger/general-ledger`).query({ accountId: randomUUID(), format: 'csv' });
    expect({ status: res.status, code: res.body.code, type: res.headers['content-type'] }).toEqual({ status: 404, code: 'LEDGER_ACCOUNT_NOT_FOUND_ERROR', type: expect.stringContaining('application/json') });
  });

  describe('a client that goes', () => {
    let url: string;
    let keyOfFixture: string;
    beforeAll(async () => {
      // Many lines, so that an export is still being read when its client goes.
      const lines = Array.from({ length: 400 }, (_, i) => ({ side: i % 2 ? 'credit' : 'debit', ledgerAccountId: i % 2 ? f.sales : f.cash, amount: 1000 + Math.floor(i / 2), description: `Línea ${i} ${'x'.repeat(80)}` }));
      for (let e = 0; e < 25; e++) await staff.post(`${base()}/ledger/entries`).send({ id: randomUUID(), entryDate: '2026-04-0' + (1 + (e % 9)), memo: `Carga ${e}`, newLedgerEntryLines: lines }).expect(201);
      const server = await t.app.listen(0, '127.0.0.1');
      url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      keyOfFixture = (await mintKey(staff)).key;
    }, 120_000);

    // Citus's connections between its nodes (citus_internal, on a cluster) are not the service's.
    const activeReads = async (sql: Client) =>
      (
        await sql.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND application_name NOT LIKE 'citus_internal%' AND (state = 'idle in transaction' OR query ILIKE 'FETCH FORWARD%' OR query ILIKE 'DECLARE read_cursor%' OR query ILIKE 'COPY (%' OR wait_event_type = 'Lock')`,
        )
      ).rows[0].n;

    it('mid-file: the cursor is closed, its transaction ended, and the heavy-read slot given back', async () => {
      const sql = new Client({ connectionString: t.databaseUrl });
      await sql.connect();
      try {
        for (const format of ['csv', 'xlsx']) {
          const controller = new AbortController();
          const res = await fetch(`${url}${base()}/reports/journal?format=${format}`, { headers: { 'x-api-key': keyOfFixture }, signal: controller.signal });
          expect(res.status).toBe(200);
          await res.body!.getReader().read(); // the first bytes: the cursor is open
          expect(await activeReads(sql)).toBeGreaterThan(0);
          controller.abort();
          await waitUntil(async () => (await activeReads(sql)) === 0);
        }
        // Both slots free: two exports at once are answered in full.
        const both = await Promise.all([0, 1].map(() => fetch(`${url}${base()}/reports/journal?format=csv&from=2026-02-01&to=2026-02-28`, { headers: { 'x-api-key': keyOfFixture } })));
        expect(both.map((r) => r.status)).toEqual([200, 200]);
        expect((await both[0].text()).split('\r\n').length).toBe(1 + 2 * 3 + 1);
        await both[1].text();
      } finally {
        await sql.end();
      }
    });

    it('while its query waits in the database: the query is cancelled there', async () => {
      const sql = new Client({ connectionString: t.databaseUrl });
      const blocker = new Client({ connectionString: t.databaseUrl });
      await Promise.all([sql.connect(), blocker.connect()]);
      try {
        await blocker.query('BEGIN');
        await blocker.query('LOCK TABLE ledger_account_monthly_totals IN ACCESS EXCLUSIVE MODE');
        const controller = new AbortController();
        const answer = fetch(`${url}${base()}/reports/general-ledger-book?from=2026-01-01&to=2026-06-30&format=xlsx`, { headers: { 'x-api-key': keyOfFixture }, signal: controller.signal }).catch((e: Error) => e);
        const waiting = () => tableLockWaiters(t, 'ledger_account_monthly_totals');
        await waitUntil(async () => (await waiting()) > 0);
        controller.abort();
        expect(await answer).toMatchObject({ name: 'AbortError' });
        // Cancelled in the database while the lock is still held: nobody waits on it any more.
        await waitUntil(async () => (await waiting()) === 0);
        await waitUntil(async () => (await activeReads(sql)) === 1); // the blocker alone, idle in its transaction
        await blocker.query('COMMIT');
      } finally {
        await blocker.end();
        await sql.end();
      }
    });

  });
});

/** The first worksheet's XML of an XLSX (the ZIP's first entry), inflated. */
function sheetXml(zip: Buffer, inflate: (b: Buffer) => Buffer): string {
  // Local file header: name length at 26, extra at 28, data after; its size is in the data descriptor.
  const nameLength = zip.readUInt16LE(26);
  const extra = zip.readUInt16LE(28);
  const name = zip.subarray(30, 30 + nameLength).toString();
  expect(name).toBe('xl/worksheets/sheet1.xml');
  const start = 30 + nameLength + extra;
  const end = zip.indexOf(Buffer.from([0x50, 0x4b, 0x07, 0x08]), start);
  return inflate(zip.subarray(start, end)).toString('utf8');
}
