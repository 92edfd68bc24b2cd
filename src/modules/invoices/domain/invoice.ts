import { errorCatalog, MAX_AMOUNT, validationError } from '../../../../libs/shared-kernel/src';

/**
 * Every code invoices and DTEs answers, with its HTTP status: the one place each is declared. The
 * compiler checks the table (D3: a *_NOT_FOUND_ERROR is 404) and that every error built here names
 * a code of it.
 */
export const INVOICE_ERROR_STATUS = {
  DTE_ALREADY_LINKED_ERROR: 409,
  DTE_INVOICE_MISMATCH_ERROR: 409,
  DTE_NOT_FOUND_ERROR: 404,
  INVOICE_ALREADY_BOOKED_ERROR: 409,
  INVOICE_ALREADY_EXISTS_ERROR: 409,
  INVOICE_BOOKED_ERROR: 409,
  INVOICE_COUNTER_ACCOUNT_REQUIRED_ERROR: 400,
  INVOICE_DOCUMENT_NUMBER_ALREADY_EXISTS_ERROR: 409,
  INVOICE_NOT_FOUND_ERROR: 404,
  INVOICE_TAX_ACCOUNT_REQUIRED_ERROR: 400,
} as const;

export const invoiceError = errorCatalog(INVOICE_ERROR_STATUS);

export const DIRECTIONS = ['ar', 'ap'] as const;
export type Direction = (typeof DIRECTIONS)[number];

/** D60: each document kind with its SII code (`other` has no DTE). */
export const SII_CODE_BY_KIND = {
  invoice: 33,
  exempt_invoice: 34,
  receipt: 39,
  exempt_receipt: 41,
  purchase_invoice: 46,
  debit_note: 56,
  credit_note: 61,
  export_invoice: 110,
  export_debit_note: 111,
  export_credit_note: 112,
  other: null,
} as const;
export type DocumentKind = keyof typeof SII_CODE_BY_KIND;
export const DOCUMENT_KINDS = Object.keys(SII_CODE_BY_KIND) as DocumentKind[];

export const BOOK_STATUSES = ['unbooked', 'booked'] as const;
export type BookStatus = (typeof BOOK_STATUSES)[number];

/** Credit notes reverse the sides of a booking (D62). */
export function isCreditNote(kind: DocumentKind): boolean {
  return kind === 'credit_note' || kind === 'export_credit_note';
}

export interface Invoice {
  entityId: string;
  id: string;
  direction: Direction;
  documentKind: DocumentKind;
  documentNumber: string;
  issueDate: string;
  dueDate: string | null;
  partnerId: string;
  currency: string;
  exchangeRate: string | null;
  netAmount: number;
  exemptAmount: number;
  taxAmount: number;
  totalAmount: number;
  servicePeriodStart: string | null;
  servicePeriodEnd: string | null;
  description: string | null;
  bookStatus: BookStatus;
  ledgerEntryId: string | null;
  /** The receivable or payable line of the booked entry (not shown; for matching and reports). */
  openItemLineId: string | null;
  dteId: string | null;
  createdAt: Date;
  updatedAt: Date;
}

/** The fields a client writes (create, and PATCH before booking). */
export type InvoiceFields = Pick<
  Invoice,
  | 'documentKind'
  | 'documentNumber'
  | 'issueDate'
  | 'dueDate'
  | 'partnerId'
  | 'currency'
  | 'exchangeRate'
  | 'netAmount'
  | 'exemptAmount'
  | 'taxAmount'
  | 'totalAmount'
  | 'servicePeriodStart'
  | 'servicePeriodEnd'
  | 'description'
>;

export type InvoiceChange = Partial<InvoiceFields>;

/** Once booked, only these may change (D61). */
export const EDITABLE_WHEN_BOOKED: ReadonlyArray<keyof InvoiceChange> = ['description', 'dueDate'];

const e =
  (code: keyof typeof INVOICE_ERROR_STATUS, message: string) =>
  (params: Record<string, unknown> = {}) =>
    invoiceError(code, message, params);

export const invoiceNotFound = e('INVOICE_NOT_FOUND_ERROR', 'No invoice with this id in the Entity');
export const invoiceAlreadyExists = e('INVOICE_ALREADY_EXISTS_ERROR', 'An invoice with this id already exists');
export const invoiceDocumentNumberTaken = e(
  'INVOICE_DOCUMENT_NUMBER_ALREADY_EXISTS_ERROR',
  'Another invoice of the Entity has this document number for the same direction, document kind and partner',
);
export const invoiceBooked = e('INVOICE_BOOKED_ERROR', 'The invoice is booked: only its description and due date can change, and it cannot be deleted');
export const invoiceAlreadyBooked = e('INVOICE_ALREADY_BOOKED_ERROR', 'The invoice is already booked');
export const invoiceCounterAccountRequired = e('INVOICE_COUNTER_ACCOUNT_REQUIRED_ERROR', 'Name counterAccountId: no default counter account applies');
export const invoiceTaxAccountRequired = e('INVOICE_TAX_ACCOUNT_REQUIRED_ERROR', 'The invoice has tax: name taxAccountId');
export const dteNotFound = e('DTE_NOT_FOUND_ERROR', 'No DTE with this id in the Entity');
export const dteAlreadyLinked = e('DTE_ALREADY_LINKED_ERROR', 'The DTE is linked to another invoice');
export const dteInvoiceMismatch = e('DTE_INVOICE_MISMATCH_ERROR', 'The DTE does not match the invoice');

/** D60/D64: a folio is digits for the kinds that have a DTE. */
const FOLIO = /^[0-9]{1,18}$/;

/**
 * The rules of one invoice's fields taken together (D60, D64): the total adds up, the amounts
 * stay exact, a foreign currency has its rate and the functional one has none, dates are in order.
 * Each refusal is 400 VALIDATION_ERROR naming the field.
 */
export function checkInvoiceFields(fields: InvoiceFields, functionalCurrency: string): void {
  if (fields.documentKind !== 'other' && !FOLIO.test(fields.documentNumber)) {
    throw validationError('documentNumber', 'must be the folio (digits only) for a document kind with a DTE');
  }
  if (fields.documentKind !== 'other' && BigInt(fields.documentNumber) === 0n) {
    throw validationError('documentNumber', 'must be a folio above 0 (D63a)');
  }
  const sum = fields.netAmount + fields.exemptAmount + fields.taxAmount;
  if (sum > MAX_AMOUNT) throw validationError('totalAmount', `must be at most ${MAX_AMOUNT}`);
  if (sum !== fields.totalAmount) {
    throw validationError('totalAmount', `must equal netAmount + exemptAmount + taxAmount (${sum})`);
  }
  if (fields.currency !== functionalCurrency && fields.exchangeRate === null) {
    throw validationError('exchangeRate', `is required when the currency is not the Entity's (${functionalCurrency})`);
  }
  if (fields.currency === functionalCurrency && fields.exchangeRate !== null) {
    throw validationError('exchangeRate', `must be null or absent when the currency is the Entity's (${functionalCurrency})`);
  }
  if (fields.dueDate !== null && fields.dueDate < fields.issueDate) {
    throw validationError('dueDate', 'must be on or after issueDate');
  }
  if (fields.servicePeriodStart !== null && fields.servicePeriodEnd !== null && fields.servicePeriodEnd < fields.servicePeriodStart) {
    throw validationError('servicePeriodEnd', 'must be on or after servicePeriodStart');
  }
}

/** D63a: a folio is an integer, so its leading zeros say nothing (`0042` is folio 42). */
export function canonicalDocumentNumber(fields: InvoiceFields): string {
  return fields.documentKind !== 'other' && FOLIO.test(fields.documentNumber) ? BigInt(fields.documentNumber).toString() : fields.documentNumber;
}

/** The fields of an invoice as they would be after a change. */
export function fieldsAfter(invoice: Invoice, change: InvoiceChange): InvoiceFields {
  const pick = <K extends keyof InvoiceFields>(key: K): InvoiceFields[K] => (change[key] !== undefined ? (change[key] as InvoiceFields[K]) : invoice[key]);
  return {
    documentKind: pick('documentKind'),
    documentNumber: pick('documentNumber'),
    issueDate: pick('issueDate'),
    dueDate: pick('dueDate'),
    partnerId: pick('partnerId'),
    currency: pick('currency'),
    exchangeRate: pick('exchangeRate'),
    netAmount: pick('netAmount'),
    exemptAmount: pick('exemptAmount'),
    taxAmount: pick('taxAmount'),
    totalAmount: pick('totalAmount'),
    servicePeriodStart: pick('servicePeriodStart'),
    servicePeriodEnd: pick('servicePeriodEnd'),
    description: pick('description'),
  };
}

/** D61: a booked invoice takes only description and dueDate. */
export function checkChangeAllowed(invoice: Invoice, change: InvoiceChange): void {
  if (invoice.bookStatus !== 'booked') return;
  const locked = (Object.keys(change) as Array<keyof InvoiceChange>).filter((key) => change[key] !== undefined && !EDITABLE_WHEN_BOOKED.includes(key));
  if (locked.length > 0) throw invoiceBooked({ invoiceId: invoice.id, fields: locked });
}

export interface InvoiceListFilter {
  direction?: Direction;
  documentKind?: DocumentKind;
  partnerId?: string;
  bookStatus?: BookStatus;
  from?: string;
  to?: string;
}
