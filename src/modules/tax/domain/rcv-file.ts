import { canonicalRut, isIsoDate, MAX_AMOUNT, normalizeName, textProblem } from '../../../../libs/shared-kernel/src';
import { rcvRowInvalid } from './tax-errors';

/**
 * The SII's RCV files (phase2-anchors §7): `;`-separated, one header row, dates DD/MM/YYYY,
 * amounts plain integers in CLP. Bounds (besides D2b's 5 MB, IMPORT_MAX_BYTES): at most
 * RCV_MAX_ROWS documents, a field of at most RCV_MAX_FIELD characters (the SII's widest, the
 * Razón Social, has 100).
 */
export const RCV_MAX_ROWS = 100_000;
export const RCV_MAX_FIELD = 1_000;
/** The SII's purchases layout has 27 columns, its sales layout 43: room for a few more. */
export const RCV_MAX_COLUMNS = 100;

/** One document of the SII's register as read from the file. */
export interface RcvRow {
  /** The line of the file (the header is line 1). */
  line: number;
  dteType: number;
  /** Canonical digits (D63a). */
  folio: string;
  partnerTaxId: string;
  partnerName: string;
  issueDate: string;
  exemptAmount: bigint;
  netAmount: bigint;
  taxAmount: bigint;
  totalAmount: bigint;
}

/** A header name with case, accents, spaces and dots ignored (D92): `Razón  Social` is `razonsocial`. */
export function headerKey(name: string): string {
  return name
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[\s.]/g, '');
}

/** The columns read, each with the header names that may carry it (both layouts). */
const COLUMNS = {
  dteType: ['tipodoc'],
  partnerTaxId: ['rutproveedor', 'rutcliente'],
  partnerName: ['razonsocial'],
  folio: ['folio'],
  issueDate: ['fechadocto'],
  exemptAmount: ['montoexento'],
  netAmount: ['montoneto'],
  taxAmount: ['montoivarecuperable', 'montoiva'],
  totalAmount: ['montototal'],
} as const;
type Column = keyof typeof COLUMNS;
const COLUMN_LABELS: Record<Column, string> = {
  dteType: 'Tipo Doc',
  partnerTaxId: 'RUT Proveedor or Rut cliente',
  partnerName: 'Razon Social',
  folio: 'Folio',
  issueDate: 'Fecha Docto',
  exemptAmount: 'Monto Exento',
  netAmount: 'Monto Neto',
  taxAmount: 'Monto IVA Recuperable or Monto IVA',
  totalAmount: 'Monto Total',
};

export type RcvLayout = Record<Column, number>;

/** The index of each column read, from the header row (line 1); a missing one is refused. */
export function rcvLayout(header: string[]): RcvLayout {
  const keys = header.map(headerKey);
  const layout = {} as RcvLayout;
  for (const column of Object.keys(COLUMNS) as Column[]) {
    const index = keys.findIndex((key) => (COLUMNS[column] as readonly string[]).includes(key));
    if (index < 0) throw rcvRowInvalid(1, `the header has no column ${COLUMN_LABELS[column]} (is this the SII's Registro de Compras y Ventas file?)`);
    layout[column] = index;
  }
  return layout;
}

const INTEGER = /^-?[0-9]{1,18}$/;

function amount(text: string, label: string, line: number): bigint {
  if (text === '') return 0n;
  if (!INTEGER.test(text)) throw rcvRowInvalid(line, `${label} is not an integer amount: ${JSON.stringify(text.slice(0, 40))}`);
  const value = BigInt(text);
  if (value > BigInt(MAX_AMOUNT) || value < -BigInt(MAX_AMOUNT)) throw rcvRowInvalid(line, `${label} is past the largest amount (${MAX_AMOUNT})`);
  return value;
}

/**
 * What a file repeats (the same partners' RUTs and names, the month's dates), read once per
 * distinct text: a 20,000-row file has a few hundred of each.
 */
export class RcvReadMemo {
  private readonly ruts = new Map<string, string | null>();
  private readonly names = new Map<string, string | null>();
  private readonly dates = new Map<string, string | null>();

  rut(text: string): string | null {
    let found = this.ruts.get(text);
    if (found === undefined) this.ruts.set(text, (found = canonicalRut(text)));
    return found;
  }

  /** The name as stored (NFC, trimmed), or null when PostgreSQL text cannot hold it. */
  name(text: string): string | null {
    let found = this.names.get(text);
    if (found === undefined) {
      const name = normalizeName(text);
      this.names.set(text, (found = textProblem(name) === null ? name : null));
    }
    return found;
  }

  /** DD/MM/YYYY as an ISO date, or null. */
  date(text: string): string | null {
    let found = this.dates.get(text);
    if (found === undefined) {
      const match = /^([0-9]{2})\/([0-9]{2})\/([0-9]{4})$/.exec(text);
      const iso = match ? `${match[3]}-${match[2]}-${match[1]}` : '';
      this.dates.set(text, (found = match && isIsoDate(iso) ? iso : null));
    }
    return found;
  }
}

/** One record of the file (line ≥ 2) as a document, or a refusal naming its line. */
export function rcvRow(record: string[], layout: RcvLayout, line: number, memo = new RcvReadMemo()): RcvRow {
  const field = (column: Column) => (record[layout[column]] ?? '').trim();
  const type = field('dteType');
  if (!/^[0-9]{1,3}$/.test(type) || Number(type) === 0) throw rcvRowInvalid(line, `Tipo Doc is not an SII document type: ${JSON.stringify(type.slice(0, 40))}`);
  const folio = field('folio');
  if (!/^[0-9]{1,18}$/.test(folio) || BigInt(folio) === 0n) throw rcvRowInvalid(line, `Folio is not a positive integer: ${JSON.stringify(folio.slice(0, 40))}`);
  const rut = memo.rut(field('partnerTaxId'));
  if (!rut) throw rcvRowInvalid(line, `${COLUMN_LABELS.partnerTaxId} is not a valid RUT: ${JSON.stringify(field('partnerTaxId').slice(0, 40))}`);
  const issueDate = memo.date(field('issueDate'));
  if (!issueDate) throw rcvRowInvalid(line, `Fecha Docto is not a date DD/MM/YYYY: ${JSON.stringify(field('issueDate').slice(0, 40))}`);
  const partnerName = memo.name(field('partnerName'));
  if (partnerName === null) throw rcvRowInvalid(line, `Razon Social ${textProblem(normalizeName(field('partnerName')))}`);
  return {
    line,
    dteType: Number(type),
    folio: BigInt(folio).toString(),
    partnerTaxId: rut,
    partnerName,
    issueDate,
    exemptAmount: amount(field('exemptAmount'), 'Monto Exento', line),
    netAmount: amount(field('netAmount'), 'Monto Neto', line),
    taxAmount: amount(field('taxAmount'), 'Monto IVA', line),
    totalAmount: amount(field('totalAmount'), 'Monto Total', line),
  };
}
