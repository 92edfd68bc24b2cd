/** D54's row, as the journal's pages and its export (the Libro Diario) answer it. */
export interface JournalRow {
  entryId: string;
  entryDate: string;
  memo: string;
  status: string;
  bookId: string | null;
  lineId: string;
  side: string;
  amount: number;
  accountId: string;
  accountCode: string;
  accountName: string;
  partnerId: string | null;
  partnerName: string | null;
  description: string | null;
}

/** A journal row from the columns read (`entry_id`, `entry_date`, ..., the amount as text or number). */
export function journalRow(r: Record<string, unknown>): JournalRow {
  return {
    entryId: r.entry_id as string,
    entryDate: r.entry_date as string,
    memo: r.memo as string,
    status: r.status as string,
    bookId: r.book_id as string | null,
    lineId: r.line_id as string,
    side: r.side as string,
    amount: Number(r.amount),
    accountId: r.account_id as string,
    accountCode: r.account_code as string,
    accountName: r.account_name as string,
    partnerId: r.partner_id as string | null,
    partnerName: r.partner_name as string | null,
    description: r.description as string | null,
  };
}

