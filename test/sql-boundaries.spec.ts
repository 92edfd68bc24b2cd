import { join } from 'node:path';
import { lintCases } from './harness/lint-cases';

/**
 * The lint rule that keeps each module's SQL on its own tables (eslint-rules/sql-boundaries.mjs,
 * issue 32), run by ESLint with the project's configuration as `npm run lint` runs it.
 */
describe('SQL boundaries lint rule', () => {
  const root = join(__dirname, '..');
  const cases: Record<string, { file: string; code: string }> = {
    ledgerTableInReports: {
      file: 'src/modules/reports/infrastructure/persistence/x.ts',
      code: "export const q = `SELECT l.id FROM ledger_lines l WHERE l.entity_id = $1`;\n",
    },
    joinedPartnersInBanking: {
      file: 'src/modules/banking/infrastructure/persistence/x.ts',
      code: "export const q = 'SELECT m.id FROM bank_movements m LEFT JOIN partners p ON p.id = m.partner_id';\n",
    },
    updateOfAnother: { file: 'src/modules/invoices/infrastructure/x.ts', code: "export const q = 'UPDATE bank_movements SET ledger_entry_id = NULL';\n" },
    ownTables: { file: 'src/modules/ledger/infrastructure/x.ts', code: "export const q = 'SELECT 1 FROM ledger_lines l JOIN ledger_entries e ON e.id = l.entry_id';\n" },
    composedParts: {
      file: 'src/modules/reports/infrastructure/x.ts',
      code: "import { LedgerReadSql } from '../../ledger';\nexport const q = `SELECT l.id FROM ${LedgerReadSql.liveLines({ entity: '$1', book: '$2::uuid' })} l`;\n",
    },
    commentNamesAnyTable: { file: 'src/modules/reports/infrastructure/x.ts', code: '// rows of ledger_lines, read FROM ledger_lines through the seam\nexport const q = 1;\n' },
  };
  let found: Record<string, string[]>;

  beforeAll(() => {
    found = lintCases(root, 'boundaries/sql-boundaries', cases, ['src/**/*.ts']);
  }, 120_000);

  it("refuses SQL naming another module's table after FROM, JOIN or UPDATE", () => {
    expect(found.ledgerTableInReports).toEqual([
      "Module 'reports' names table 'ledger_lines' of module 'ledger' in SQL: compose the part 'ledger' exports from its index (docs/ARCHITECTURE.md, the read seam) instead.",
    ]);
    expect(found.joinedPartnersInBanking).toEqual([expect.stringContaining("table 'partners' of module 'partners'")]);
    expect(found.updateOfAnother).toEqual([expect.stringContaining("table 'bank_movements' of module 'banking'")]);
  });

  it("lets a module name its own tables, compose another's exported parts, and mention any table in a comment", () => {
    expect([found.ownTables, found.composedParts, found.commentNamesAnyTable]).toEqual([[], [], []]);
  });

  it('finds no violation in the code base', () => {
    expect(found.codeBase).toEqual([]);
  });
});
