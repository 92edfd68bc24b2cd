import { DomainError } from '../../libs/shared-kernel/src';

/**
 * A parser for src/platform/imports/parse-pool.spec.ts, run in the pool's workers: what it does
 * is the file's text (`ok:...`, `refuse`, `bug`, `exit`, `oom`).
 */
export function parse(bytes: Buffer): unknown {
  const text = bytes.toString('utf8');
  if (text.startsWith('ok:')) return { length: bytes.length, text: text.slice(3), amount: 12345678901234567890n };
  if (text === 'refuse') throw new DomainError('BANK_IMPORT_ROW_INVALID_ERROR', 'Statement row 7: amount must not be zero', { row: 7, reason: 'amount must not be zero' }, 400);
  if (text === 'bug') throw new TypeError('cannot read the fixture');
  if (text === 'exit') process.exit(3);
  if (text === 'oom') {
    const hoard: number[][] = [];
    for (;;) hoard.push(new Array<number>(1_000_000).fill(hoard.length));
  }
  throw new Error(`unknown fixture ${text.slice(0, 20)}`);
}
