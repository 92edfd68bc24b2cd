// @ts-check
/**
 * SQL boundaries (docs/ARCHITECTURE.md, issue 32): a module's SQL names only its own tables. A
 * table belongs to the module whose files declare it (`@Entity('name')`); a string or template
 * literal in src/modules/<a>/ that names, right after FROM, JOIN, INTO, UPDATE, REFERENCES or
 * TABLE, a table another module declares is refused: read it through the SQL parts that module
 * exports from its index (LedgerReadSql, partnerFactsSql, entityFactsSql, ...). Comments are not
 * literals, so they may name any table.
 */
import fs from 'node:fs';
import path from 'node:path';

/** @type {Map<string, Map<string, string>>} table -> module, per project root */
const owners = new Map();

/** @param {string} dir @returns {string[]} */
function sourceFiles(dir) {
  const out = [];
  /** @param {string} d */
  const walk = (d) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.ts') && !/\.(spec|test)\.ts$/.test(e.name)) out.push(p);
    }
  };
  if (fs.existsSync(dir)) walk(dir);
  return out;
}

/** @param {string} root */
function tableOwners(root) {
  let map = owners.get(root);
  if (map) return map;
  map = new Map();
  const modulesDir = path.join(root, 'src', 'modules');
  if (fs.existsSync(modulesDir)) {
    for (const m of fs.readdirSync(modulesDir, { withFileTypes: true }).filter((e) => e.isDirectory())) {
      for (const f of sourceFiles(path.join(modulesDir, m.name))) {
        for (const x of fs.readFileSync(f, 'utf8').matchAll(/@Entity\(\s*(?:\{\s*name:\s*)?['"]([a-z0-9_]+)['"]/g)) map.set(x[1], m.name);
      }
    }
  }
  owners.set(root, map);
  return map;
}

/** @param {string} file @param {string} root @returns {string | null} */
function moduleOf(file, root) {
  const parts = path.relative(root, file).split(path.sep);
  return parts[0] === 'src' && parts[1] === 'modules' && parts.length >= 4 ? parts[2] : null;
}

const REFERENCE = /\b(?:FROM|JOIN|INTO|UPDATE|REFERENCES|TABLE)\s+(?:ONLY\s+)?"?([a-z0-9_]+)"?(?![a-z0-9_])/gi;

/** @type {import('eslint').Rule.RuleModule} */
const rule = {
  meta: {
    type: 'problem',
    docs: { description: "A module's SQL names only its own tables; another module's are read through the SQL parts its index exports" },
    messages: {
      foreign: "Module '{{from}}' names table '{{table}}' of module '{{owner}}' in SQL: compose the part '{{owner}}' exports from its index (docs/ARCHITECTURE.md, the read seam) instead.",
    },
    schema: [],
  },
  create(context) {
    const root = context.cwd;
    const from = moduleOf(context.filename, root);
    if (!from || /\.(spec|test)\.ts$/.test(context.filename)) return {};
    const tables = tableOwners(root);
    /** @param {import('estree').Node} node @param {string} text */
    const check = (node, text) => {
      for (const x of text.matchAll(REFERENCE)) {
        const table = x[1].toLowerCase();
        const owner = tables.get(table);
        if (owner && owner !== from) context.report({ node, messageId: 'foreign', data: { from, table, owner } });
      }
    };
    return {
      Literal: (node) => typeof node.value === 'string' && check(node, node.value),
      TemplateElement: (node) => check(node, node.value.cooked ?? node.value.raw),
    };
  },
};

export default { rules: { 'sql-boundaries': rule } };
