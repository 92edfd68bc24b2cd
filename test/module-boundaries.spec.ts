import { join } from 'node:path';
import { lintCases } from './harness/lint-cases';

/**
 * The lint rule that holds the module boundaries (eslint-rules/module-boundaries.mjs), run by
 * ESLint with the project's own configuration as `npm run lint` runs it (in a child process: the
 * flat config is an ES module, which Jest's VM cannot import).
 */
describe('module boundaries lint rule', () => {
  const root = join(__dirname, '..');
  const cases: Record<string, { file: string; code: string }> = {
    domainOfAnother: { file: 'src/modules/partners/partners.module.ts', code: "import { EntryRepository } from '../ledger/domain/entry-ports';\nexport const x = EntryRepository;\n" },
    applicationOfAnother: {
      file: 'src/modules/invoices/application/book-invoice.ts',
      code: "import { LedgerPostings } from '../../ledger/application/post-entry/ledger-postings';\nexport const x = LedgerPostings;\n",
    },
    reExportOfInfrastructure: { file: 'src/modules/banking/infrastructure/x.ts', code: "export { PartnerRecord } from '../../partners/infrastructure/persistence/partner.record';\n" },
    throughIndex: { file: 'src/modules/invoices/application/book-invoice.ts', code: "import { LedgerPostings } from '../../ledger';\nimport { x } from '../domain/invoice';\nexport const y = [LedgerPostings, x];\n" },
    ownFiles: { file: 'src/modules/ledger/application/x.ts', code: "import { LedgerEntry } from '../domain/ledger-entry';\nexport const y = LedgerEntry;\n" },
    platformImportsModule: { file: 'src/platform/database/schema.ts', code: "import { LEDGER_RECORDS } from '../../modules/ledger';\nexport const y = LEDGER_RECORDS;\n" },
    libsImportsModule: { file: 'libs/shared-kernel/src/x.ts', code: "import { PartnersModule } from '../../../src/modules/partners/partners.module';\nexport const y = PartnersModule;\n" },
    compositionRoot: { file: 'src/schema.ts', code: "import { LEDGER_RECORDS } from './modules/ledger';\nexport const y = LEDGER_RECORDS;\n" },
  };
  let found: Record<string, string[]>;

  beforeAll(() => {
    found = lintCases(root, 'boundaries/module-boundaries', cases, ['src/**/*.ts', 'libs/**/*.ts']);
  }, 120_000);

  it("refuses an import of another module's domain, application or infrastructure file", () => {
    expect(found.domainOfAnother).toEqual(["Module 'partners' imports '../ledger/domain/entry-ports', inside module 'ledger': import from the module's index ('../ledger') instead."]);
    expect(found.applicationOfAnother).toHaveLength(1);
    expect(found.reExportOfInfrastructure).toHaveLength(1);
  });

  it('lets a module import another through its index, and its own files freely', () => {
    expect([found.throughIndex, found.ownFiles]).toEqual([[], []]);
  });

  it('refuses platform/ and libs/ importing a module, even its index', () => {
    expect(found.platformImportsModule).toEqual([
      "platform/ imports module 'ledger' ('../../modules/ledger'): platform and libs import no module; wire it at the composition root (src/app.module.ts, src/schema.ts).",
    ]);
    expect(found.libsImportsModule).toHaveLength(1);
  });

  it('lets the composition root (src/*.ts) wire modules through their index', () => {
    expect(found.compositionRoot).toEqual([]);
  });

  it('finds no violation in the code base', () => {
    expect(found.codeBase).toEqual([]);
  });
});
