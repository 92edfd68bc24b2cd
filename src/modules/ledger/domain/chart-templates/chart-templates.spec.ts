import clPyme from './cl-pyme.json';
import ifrsSme from './ifrs-sme.json';

interface TemplateGroup {
  ref: string;
  parentRef: string | null;
  codePrefix: string;
  name: string;
  type: string;
}

interface TemplateAccount {
  groupRef: string;
  code: string;
  name: string;
  type: string;
  tracking: string;
  subtype: string | null;
}

interface ChartTemplate {
  key: string;
  version: string;
  locale: string;
  effectiveFrom: string;
  groups: TemplateGroup[];
  accounts: TemplateAccount[];
}

const ACCOUNT_TYPES = [
  'asset',
  'liability',
  'equity',
  'income',
  'cost_of_goods_sold',
  'operating_expense',
  'other_income',
  'other_expense',
] as const;

const TYPE_FAMILIES: readonly (readonly string[])[] = [
  ['asset'],
  ['liability'],
  ['equity'],
  ['income', 'other_income'],
  ['cost_of_goods_sold', 'operating_expense', 'other_expense'],
];

const TRACKINGS = ['balance', 'open_item'];

/** D31: the types and tracking each subtype admits. */
const SUBTYPE_RULES: Record<string, { types: readonly string[]; tracking: string }> = {
  fixed_asset: { types: ['asset'], tracking: 'balance' },
  receivable: { types: ['asset'], tracking: 'open_item' },
  unbilled_receivable: { types: ['asset'], tracking: 'open_item' },
  payable: { types: ['liability'], tracking: 'open_item' },
  internal_transfer: { types: ['asset'], tracking: 'balance' },
  migration_clearing: { types: ['asset', 'liability', 'equity'], tracking: 'balance' },
};

/** Names of accounts that may be tracked by open item although they carry no AR/AP subtype. */
const OPEN_ITEM_NAME = /client|proveedor|documentos por (cobrar|pagar)|receivable|payable/i;
const ACCUMULATED_DEPRECIATION_NAME = /depreciaci[oó]n acumulada|accumulated depreciation/i;

const TEMPLATES: { file: string; template: ChartTemplate; minAccounts: number; key: string; locale: string }[] = [
  { file: 'cl-pyme.json', template: clPyme, minAccounts: 85, key: 'cl-pyme', locale: 'es-CL' },
  { file: 'ifrs-sme.json', template: ifrsSme, minAccounts: 50, key: 'ifrs-sme', locale: 'en' },
];

function familyOf(type: string): number {
  return TYPE_FAMILIES.findIndex((family) => family.includes(type));
}

function sameFamily(a: string, b: string): boolean {
  return familyOf(a) !== -1 && familyOf(a) === familyOf(b);
}

function duplicates(values: string[]): string[] {
  const seen = new Set<string>();
  const dups = new Set<string>();
  for (const value of values) {
    if (seen.has(value)) dups.add(value);
    seen.add(value);
  }
  return [...dups];
}

function groupsByRef(template: ChartTemplate): Map<string, TemplateGroup> {
  return new Map(template.groups.map((group) => [group.ref, group]));
}

function invalidTypes(template: ChartTemplate): string[] {
  const known: readonly string[] = ACCOUNT_TYPES;
  return [
    ...template.groups.filter((g) => !known.includes(g.type)).map((g) => `group ${g.ref}: ${g.type}`),
    ...template.accounts.filter((a) => !known.includes(a.type)).map((a) => `account ${a.code}: ${a.type}`),
  ];
}

function invalidTrackings(template: ChartTemplate): string[] {
  return template.accounts.filter((a) => !TRACKINGS.includes(a.tracking)).map((a) => `${a.code}: ${a.tracking}`);
}

function subtypeViolations(template: ChartTemplate): string[] {
  const violations: string[] = [];
  for (const account of template.accounts) {
    if (account.subtype === null) continue;
    const rule = SUBTYPE_RULES[account.subtype];
    if (!rule) violations.push(`${account.code}: unknown subtype ${account.subtype}`);
    else if (!rule.types.includes(account.type)) violations.push(`${account.code}: ${account.subtype} on type ${account.type}`);
    else if (rule.tracking !== account.tracking) violations.push(`${account.code}: ${account.subtype} tracked by ${account.tracking}`);
  }
  return violations;
}

function countBySubtype(template: ChartTemplate, subtype: string): number {
  return template.accounts.filter((a) => a.subtype === subtype).length;
}

function openItemViolations(template: ChartTemplate): string[] {
  return template.accounts
    .filter((a) => a.tracking === 'open_item')
    .filter((a) => {
      const arApSubtype = a.subtype === 'receivable' || a.subtype === 'unbilled_receivable' || a.subtype === 'payable';
      const receivableOrPayableLike = (a.type === 'asset' || a.type === 'liability') && (a.subtype === null && OPEN_ITEM_NAME.test(a.name));
      return !arApSubtype && !receivableOrPayableLike;
    })
    .map((a) => `${a.code} ${a.name}`);
}

function accumulatedDepreciationViolations(template: ChartTemplate): string[] {
  return template.accounts
    .filter((a) => ACCUMULATED_DEPRECIATION_NAME.test(a.name))
    .filter((a) => a.type !== 'asset' || a.tracking !== 'balance' || a.subtype !== 'fixed_asset')
    .map((a) => `${a.code} ${a.name}`);
}

function parentViolations(template: ChartTemplate): string[] {
  const byRef = groupsByRef(template);
  return template.groups
    .filter((g) => g.parentRef !== null && !byRef.has(g.parentRef))
    .map((g) => `${g.ref}: parent ${g.parentRef} missing`);
}

function cycleViolations(template: ChartTemplate): string[] {
  const byRef = groupsByRef(template);
  const violations: string[] = [];
  for (const group of template.groups) {
    const visited = new Set<string>([group.ref]);
    let parentRef = group.parentRef;
    while (parentRef !== null) {
      if (visited.has(parentRef)) {
        violations.push(`${group.ref}: cycle through ${parentRef}`);
        break;
      }
      visited.add(parentRef);
      parentRef = byRef.get(parentRef)?.parentRef ?? null;
    }
  }
  return violations;
}

function childFamilyViolations(template: ChartTemplate): string[] {
  const byRef = groupsByRef(template);
  return template.groups
    .filter((g) => g.parentRef !== null && byRef.has(g.parentRef))
    .filter((g) => !sameFamily(g.type, byRef.get(g.parentRef as string)!.type))
    .map((g) => `${g.ref} (${g.type}) under ${g.parentRef}`);
}

function childPrefixViolations(template: ChartTemplate): string[] {
  const byRef = groupsByRef(template);
  return template.groups
    .filter((g) => g.parentRef !== null && byRef.has(g.parentRef))
    .filter((g) => {
      const parentPrefix = byRef.get(g.parentRef as string)!.codePrefix;
      return !g.codePrefix.startsWith(parentPrefix) || g.codePrefix === parentPrefix;
    })
    .map((g) => `${g.ref} (${g.codePrefix}) under ${g.parentRef}`);
}

function unrelatedPrefixOverlaps(template: ChartTemplate): string[] {
  const byRef = groupsByRef(template);
  const isAncestor = (ancestorRef: string, group: TemplateGroup): boolean => {
    let ref = group.parentRef;
    // At most one step per group, so a cycle (reported by its own test) cannot hang this one.
    for (let steps = 0; ref !== null && steps < template.groups.length; steps += 1) {
      if (ref === ancestorRef) return true;
      ref = byRef.get(ref)?.parentRef ?? null;
    }
    return false;
  };
  const overlaps: string[] = [];
  for (const a of template.groups) {
    for (const b of template.groups) {
      if (a !== b && b.codePrefix.startsWith(a.codePrefix) && !isAncestor(a.ref, b)) {
        overlaps.push(`${b.ref} (${b.codePrefix}) inside ${a.ref} (${a.codePrefix})`);
      }
    }
  }
  return overlaps;
}

function accountGroupViolations(template: ChartTemplate): string[] {
  const byRef = groupsByRef(template);
  const violations: string[] = [];
  for (const account of template.accounts) {
    const group = byRef.get(account.groupRef);
    if (!group) violations.push(`${account.code}: group ${account.groupRef} missing`);
    else if (!sameFamily(account.type, group.type)) violations.push(`${account.code} (${account.type}) in ${group.ref} (${group.type})`);
    else if (!account.code.startsWith(group.codePrefix)) violations.push(`${account.code} in ${group.ref} (${group.codePrefix})`);
  }
  return violations;
}

function emptyNames(template: ChartTemplate): string[] {
  return [
    ...template.groups.filter((g) => g.name.trim() === '').map((g) => `group ${g.ref}`),
    ...template.accounts.filter((a) => a.name.trim() === '').map((a) => `account ${a.code}`),
  ];
}

function nonDigitCodes(template: ChartTemplate): string[] {
  return [
    ...template.groups.filter((g) => !/^\d+$/.test(g.codePrefix)).map((g) => `group ${g.ref}: ${g.codePrefix}`),
    ...template.accounts.filter((a) => !/^\d+$/.test(a.code)).map((a) => `account ${a.code}`),
  ];
}

function accountsNamed(template: ChartTemplate, pattern: RegExp): TemplateAccount[] {
  return template.accounts.filter((a) => pattern.test(a.name));
}

describe.each(TEMPLATES)('chart template $file', ({ template, minAccounts, key, locale }) => {
  it('carries its key, version, locale and effective date', () => {
    expect(template).toMatchObject({ key, locale, version: expect.stringMatching(/^\S+$/) });
    expect(template.effectiveFrom).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(Number.isNaN(Date.parse(template.effectiveFrom))).toBe(false);
  });

  it(`has at least ${minAccounts} accounts`, () => {
    expect(template.accounts.length).toBeGreaterThanOrEqual(minAccounts);
  });

  it('uses only the eight account types on groups and accounts', () => {
    expect(invalidTypes(template)).toEqual([]);
  });

  it('tracks every account by balance or open item', () => {
    expect(invalidTrackings(template)).toEqual([]);
  });

  it('gives each subtype only the types and tracking it admits', () => {
    expect(subtypeViolations(template)).toEqual([]);
  });

  it('tracks by open item only receivable and payable accounts', () => {
    expect(openItemViolations(template)).toEqual([]);
  });

  it('has exactly one receivable account and exactly one payable account', () => {
    expect(countBySubtype(template, 'receivable')).toBe(1);
    expect(countBySubtype(template, 'payable')).toBe(1);
  });

  it('has exactly one migration clearing account and one internal transfer account', () => {
    expect(countBySubtype(template, 'migration_clearing')).toBe(1);
    expect(countBySubtype(template, 'internal_transfer')).toBe(1);
  });

  it('keeps accumulated depreciation as balance-tracked fixed-asset accounts', () => {
    expect(accountsNamed(template, ACCUMULATED_DEPRECIATION_NAME).length).toBeGreaterThan(0);
    expect(accumulatedDepreciationViolations(template)).toEqual([]);
  });

  it('has unique group refs', () => {
    expect(duplicates(template.groups.map((g) => g.ref))).toEqual([]);
  });

  it('gives every group a null parent or an existing one, without cycles', () => {
    expect(parentViolations(template)).toEqual([]);
    expect(cycleViolations(template)).toEqual([]);
  });

  it('has a top group for each type family', () => {
    const topFamilies = new Set(template.groups.filter((g) => g.parentRef === null).map((g) => familyOf(g.type)));
    expect([...topFamilies].sort()).toEqual(TYPE_FAMILIES.map((_, index) => index));
  });

  it('keeps a child group in the type family of its parent', () => {
    expect(childFamilyViolations(template)).toEqual([]);
  });

  it('has unique group code prefixes', () => {
    expect(duplicates(template.groups.map((g) => g.codePrefix))).toEqual([]);
  });

  it("starts a child group's code prefix with its parent's code prefix", () => {
    expect(childPrefixViolations(template)).toEqual([]);
  });

  it('never nests a code prefix inside a group that is not an ancestor', () => {
    expect(unrelatedPrefixOverlaps(template)).toEqual([]);
  });

  it("puts each account in an existing group of its type family, its code starting with the group's prefix", () => {
    expect(accountGroupViolations(template)).toEqual([]);
  });

  it('has unique account codes', () => {
    expect(duplicates(template.accounts.map((a) => a.code))).toEqual([]);
  });

  it('has unique account names', () => {
    expect(duplicates(template.accounts.map((a) => a.name.toLowerCase()))).toEqual([]);
  });

  it('names every group and account', () => {
    expect(emptyNames(template)).toEqual([]);
  });

  it('uses digits only in codes and code prefixes', () => {
    expect(nonDigitCodes(template)).toEqual([]);
  });
});

describe('chart template cl-pyme contents', () => {
  const template: ChartTemplate = clPyme;

  it.each([
    ['IVA Crédito Fiscal', /^IVA Cr[eé]dito Fiscal$/i, 'asset'],
    ['IVA Débito Fiscal', /^IVA D[eé]bito Fiscal$/i, 'liability'],
    ['PPM', /\bPPM\b.*pagos provisionales mensuales/i, 'asset'],
    ['a bank account', /^Banco/i, 'asset'],
    ['a retained-earnings account', /utilidades \(p[eé]rdidas\) acumuladas|resultados acumulados/i, 'equity'],
    ['the result of the year', /^Resultado del ejercicio$/i, 'equity'],
    ['income tax expense', /^Impuesto a la renta$/i, 'other_expense'],
  ])('has %s', (_label, pattern, type) => {
    expect(accountsNamed(template, pattern).filter((a) => a.type === type).length).toBeGreaterThan(0);
  });

  it('has Clientes as its receivable account and Proveedores as its payable account', () => {
    expect(template.accounts.find((a) => a.subtype === 'receivable')?.name).toMatch(/^Clientes/);
    expect(template.accounts.find((a) => a.subtype === 'payable')?.name).toMatch(/^Proveedores/);
  });

  it('names the migration and opening account and the transfers between bank accounts', () => {
    expect(template.accounts.find((a) => a.subtype === 'migration_clearing')?.name).toMatch(/migraci[oó]n|apertura/i);
    expect(template.accounts.find((a) => a.subtype === 'internal_transfer')?.name).toMatch(/traspasos entre cuentas bancarias/i);
  });
});
