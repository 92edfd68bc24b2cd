/**
 * Ledger rows as lines with the balance after each, debit-positive (D55, D56): the common fields,
 * then the report's own, in the order its decision lists them.
 */
export function withRunningBalance<T extends object>(rows: Array<Record<string, unknown>>, start: bigint, own: (row: Record<string, unknown>, runningBalance: bigint) => T) {
  let running = start;
  return rows.map((row) => {
    const amount = Number(row.amount);
    // D6a: summed exactly (a balance past 2^53 moves by 1 too); the answer refuses what JSON cannot hold.
    running += row.side === 'debit' ? BigInt(row.amount as string) : -BigInt(row.amount as string);
    return {
      lineId: row.line_id as string,
      entryId: row.entry_id as string,
      entryDate: row.entry_date as string,
      memo: row.memo as string,
      side: row.side as string,
      amount,
      ...own(row, running),
    };
  });
}
