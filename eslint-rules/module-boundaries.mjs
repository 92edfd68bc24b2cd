// @ts-check
/**
 * Module boundaries (docs/ARCHITECTURE.md): a file of src/modules/<a>/ imports another module <b>
 * only through src/modules/<b>/index.ts, never its domain/, application/ or infrastructure/
 * files; src/platform/ and libs/ import no module at all (the composition root, src/*.ts, wires
 * the modules). Relative imports are resolved against the importing file.
 */
import path from 'node:path';

/** @param {string} file @param {string} root */
function place(file, root) {
  const parts = path.relative(root, file).split(path.sep);
  if (parts[0] === 'libs') return { zone: 'libs', module: null };
  if (parts[0] !== 'src') return { zone: 'other', module: null };
  if (parts[1] === 'platform') return { zone: 'platform', module: null };
  if (parts[1] === 'modules' && parts.length >= 3) return { zone: 'modules', module: parts[2], rest: parts.slice(3) };
  return { zone: 'root', module: null };
}

/** @type {import('eslint').Rule.RuleModule} */
const rule = {
  meta: {
    type: 'problem',
    docs: { description: "Import another module only through its index.ts; platform and libs import no module" },
    messages: {
      internals: "Module '{{from}}' imports '{{spec}}', inside module '{{to}}': import from the module's index ('{{index}}') instead.",
      platform: "{{zone}}/ imports module '{{to}}' ('{{spec}}'): platform and libs import no module; wire it at the composition root (src/app.module.ts, src/schema.ts).",
    },
    schema: [],
  },
  create(context) {
    const root = context.cwd;
    const file = context.filename;
    const from = place(file, root);
    if (from.zone === 'other') return {};
    /** @param {import('estree').Node} node @param {unknown} source */
    const check = (node, source) => {
      if (typeof source !== 'string' || !source.startsWith('.')) return;
      const target = place(path.resolve(path.dirname(file), source), root);
      if (target.zone !== 'modules' || !target.module || !target.rest) return;
      if (from.zone === 'platform' || from.zone === 'libs') {
        context.report({ node, messageId: 'platform', data: { zone: from.zone, to: target.module, spec: source } });
        return;
      }
      if (from.zone !== 'modules' || from.module === target.module) return;
      const isIndex = target.rest.length === 0 || (target.rest.length === 1 && /^index(\.ts)?$/.test(target.rest[0]));
      if (isIndex) return;
      const index = path.relative(path.dirname(file), path.join(root, 'src', 'modules', target.module)).split(path.sep).join('/');
      context.report({ node, messageId: 'internals', data: { from: String(from.module), to: target.module, spec: source, index } });
    };
    return {
      ImportDeclaration: (node) => check(node, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node, node.source.value),
      ExportAllDeclaration: (node) => check(node, node.source.value),
      ImportExpression: (node) => node.source.type === 'Literal' && check(node, node.source.value),
    };
  },
};

export default { rules: { 'module-boundaries': rule } };
