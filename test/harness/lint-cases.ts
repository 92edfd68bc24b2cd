import { execFileSync } from 'node:child_process';

/**
 * Lints each case's code as if it were the named file, and then the files of `codeBase`, with
 * the project's ESLint configuration as `npm run lint` runs it (in a child process: the flat
 * config is an ES module, which Jest's VM cannot import). Returns, per case and as `codeBase`,
 * the messages of the one rule `ruleId`.
 */
export function lintCases(root: string, ruleId: string, cases: Record<string, { file: string; code: string }>, codeBase: string[]): Record<string, string[]> {
  const script = `
    import { ESLint } from 'eslint';
    const [root, ruleId, cases, codeBase] = [process.argv[1], process.argv[2], JSON.parse(process.argv[3]), JSON.parse(process.argv[4])];
    const eslint = new ESLint({ cwd: root });
    const out = {};
    const only = (messages) => messages.filter((m) => m.ruleId === ruleId).map((m) => m.message);
    for (const [name, c] of Object.entries(cases)) out[name] = only((await eslint.lintText(c.code, { filePath: root + '/' + c.file }))[0].messages);
    out.codeBase = (await eslint.lintFiles(codeBase)).flatMap((r) => only(r.messages).map((m) => r.filePath + ': ' + m));
    process.stdout.write(JSON.stringify(out));`;
  return JSON.parse(
    execFileSync(process.execPath, ['--input-type=module', '-e', script, root, ruleId, JSON.stringify(cases), JSON.stringify(codeBase)], { cwd: root, encoding: 'utf8' }),
  ) as Record<string, string[]>;
}
