import { Injectable } from '@nestjs/common';
import Big from 'big.js';
import { SaxesParser } from 'saxes';
import { clean as cleanRut, validate as validRut } from 'rut.js';
import { DomainError, isIsoDate, MAX_AMOUNT } from '../../../../libs/shared-kernel/src';
import { DteXmlReader } from '../application/dte-xml-reader';
import { DteDocument, DteForeignTotals, DteReference, EXPORT_DTE_TYPES, LIQUIDACION_FACTURA } from '../domain/dte';

/** Document types of the SII (phase2-anchors section 1). */
const DTE_TYPES = new Set([33, 34, 39, 41, 43, 46, 52, 56, 61, 110, 111, 112]);
/** EnvioDTE_v10.xsd and EnvioBOLETA_v11.xsd. */
const MAX_DOCUMENTS = { EnvioDTE: 2000, EnvioBOLETA: 500 } as const;

/**
 * ISO 4217 codes of the customs currency names of `TipMonType` (SiiTypes_v10.xsd) that name a
 * currency in use; the others (`OTRAS MONEDAS`, `PESO` and `RUPIA`, which do not say which, and
 * the retired European and Latin American currencies) have none.
 */
const ISO_BY_CUSTOMS_CURRENCY: Readonly<Record<string, string>> = {
  BOLIVAR: 'VES',
  BOLIVIANO: 'BOB',
  'CORONA DIN': 'DKK',
  'CORONA NOR': 'NOK',
  'CORONA SC': 'SEK',
  DIRHAM: 'AED',
  'DOLAR AUST': 'AUD',
  'DOLAR CAN': 'CAD',
  'DOLAR HK': 'HKD',
  'DOLAR NZ': 'NZD',
  'DOLAR SIN': 'SGD',
  'DOLAR TAI': 'TWD',
  'DOLAR USA': 'USD',
  EURO: 'EUR',
  'FRANCO SZ': 'CHF',
  GUARANI: 'PYG',
  'LIBRA EST': 'GBP',
  'NUEVO SOL': 'PEN',
  'PESO CL': 'CLP',
  'PESO COL': 'COP',
  'PESO MEX': 'MXN',
  'PESO URUG': 'UYU',
  RAND: 'ZAR',
  RENMINBI: 'CNY',
  YEN: 'JPY',
};
const PESO_CL = 'PESO CL';

/** The export totals (DTE_v10.xsd: decimal, at most 14 integer and 4 fraction digits, not negative). */
const FOREIGN_AMOUNT = /^[0-9]{1,14}(\.[0-9]{1,4})?$/;
/** `OtraMoneda`'s amounts are `xs:decimal`: not negative, here at most 18 integer and 10 decimal digits. */
const OTHER_CURRENCY_AMOUNT = /^[0-9]{1,18}(\.[0-9]{1,10})?$/;
/** `TpoCambio`, Dec6_4Type: at most 6 integer and 4 fraction digits, above zero. */
const EXCHANGE_RATE = /^[0-9]{1,6}(\.[0-9]{1,4})?$/;

const invalid = (message: string, params: Record<string, unknown>) =>
  new DomainError('VALIDATION_ERROR', message, { ...params, errors: [{ path: String(params.path ?? 'body'), message }] });

/**
 * The text of the file in the encoding its XML declaration names (D65a, D65b): ISO-8859-1 as the
 * SII writes it (Node's `latin1` is true ISO-8859-1), windows-1252 as some issuers write it, or
 * UTF-8 (the XML default). Bytes that are not UTF-8 in a UTF-8 file are refused, never replaced.
 */
function decode(body: Buffer): string {
  const head = body.subarray(0, 200).toString('latin1');
  const declared = /^(?:\uFEFF|ï»¿)?<\?xml[^>]*\bencoding\s*=\s*["']([A-Za-z0-9._-]+)["']/.exec(head)?.[1]?.toLowerCase() ?? 'utf-8';
  if (['iso-8859-1', 'iso8859-1', 'latin1', 'latin-1', 'l1', 'iso_8859-1'].includes(declared)) return body.toString('latin1');
  if (['windows-1252', 'cp1252'].includes(declared)) return new TextDecoder('windows-1252').decode(body);
  if (declared === 'utf-8' || declared === 'utf8') {
    try {
      return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(body);
    } catch {
      throw invalid('The file declares UTF-8 but holds bytes that are not UTF-8', { path: 'body' });
    }
  }
  throw invalid(`The file's encoding "${declared}" is not read: send ISO-8859-1, windows-1252 or UTF-8`, { path: 'body', encoding: declared });
}

/** An element as the reader keeps it: its local name (no prefix), child elements and text. */
interface Element {
  name: string;
  children: Element[];
  text: string;
}

/**
 * Parses with saxes (strict XML, streaming, no DTD processing: predefined entities and character
 * references only; any other entity reference is a well-formedness error) into a small tree of
 * element names and texts. Attributes, comments and processing instructions are not kept.
 */
function parse(text: string): Element {
  const parser = new SaxesParser({ xmlns: false, position: true });
  const root: Element = { name: '#document', children: [], text: '' };
  const stack: Element[] = [root];
  parser.on('opentag', (tag) => {
    const colon = tag.name.indexOf(':');
    const element: Element = { name: colon < 0 ? tag.name : tag.name.slice(colon + 1), children: [], text: '' };
    stack[stack.length - 1].children.push(element);
    stack.push(element);
  });
  parser.on('closetag', () => {
    stack.pop();
  });
  const addText = (chunk: string) => {
    stack[stack.length - 1].text += chunk;
  };
  parser.on('text', addText);
  parser.on('cdata', addText);
  parser.on('doctype', () => {
    throw invalid('The file declares a DOCTYPE: document type declarations, entities and external references are refused', {
      path: 'body',
      line: parser.line,
      column: parser.column,
    });
  });
  try {
    parser.write(text).close();
  } catch (error) {
    if (error instanceof DomainError) throw error;
    const message = (error as Error).message.replace(/^[^:]*:\d+:\d+: /, '');
    throw invalid(`The XML is not well-formed at line ${parser.line}, column ${parser.column}: ${message}`, { path: 'body', line: parser.line, column: parser.column });
  }
  return root;
}

type Node = Element | undefined;

const child = (node: Node, name: string): Node => node?.children.find((c) => c.name === name);
const childrenNamed = (node: Node, name: string): Element[] => node?.children.filter((c) => c.name === name) ?? [];
const textOf = (node: Node): string | undefined => (node === undefined ? undefined : node.text.trim());

/** Reads one document, naming it (its position and folio) and the field in any refusal. */
class DocumentFields {
  constructor(
    private readonly position: number,
    private readonly path: string,
    private folio: string | null = null,
  ) {}

  fail(field: string, message: string): never {
    const name = `document ${this.position}${this.folio ? ` (folio ${this.folio})` : ''}`;
    throw invalid(`${name}: ${field} ${message}`, { path: `${this.path}.${field}`, document: this.position, folio: this.folio, field });
  }

  text(node: Node, field: string, required: true): string;
  text(node: Node, field: string, required: false): string | null;
  text(node: Node, field: string, required: boolean): string | null {
    const value = textOf(child(node, field.split('.').pop()!));
    if (value === undefined || value === '') {
      if (required) this.fail(field, 'is missing');
      return null;
    }
    return value;
  }

  folioOf(node: Node, field: string): string {
    const folio = this.text(node, field, true);
    if (!/^[0-9]{1,18}$/.test(folio)) this.fail(field, 'must be a positive integer (digits only)');
    this.folio = folio;
    return folio;
  }

  /**
   * MontoType: a non-negative integer of at most 18 digits, here within D6's range. A
   * liquidación-factura's totals are ValorType, which may be negative (`signed`).
   */
  amount(node: Node, field: string, required: boolean, signed = false): number {
    const text = this.text(node, field, required as false);
    if (text === null) return 0;
    if (!(signed ? /^-?[0-9]{1,18}$/ : /^[0-9]{1,18}$/).test(text)) {
      this.fail(field, `must be ${signed ? 'an' : 'a non-negative'} integer amount in pesos, not "${text.slice(0, 40)}"`);
    }
    const value = Number(text);
    if (Math.abs(value) > MAX_AMOUNT) this.fail(field, `must be at most ${MAX_AMOUNT}${signed ? ' in absolute value' : ''}`);
    return value === 0 ? 0 : value;
  }

  /** A decimal amount as an exact string in its plain form (`1200.50` is `1200.5`), never a float. */
  decimal(node: Node, field: string, required: boolean, pattern: RegExp, rule: string): string | null {
    const text = this.text(node, field, required as false);
    if (text === null) return null;
    if (!pattern.test(text)) this.fail(field, `must be ${rule}, not "${text.slice(0, 40)}"`);
    return new Big(text).toFixed();
  }

  /** A peso figure of `OtraMoneda` (xs:decimal) as whole pesos, half away from zero (pesos have no minor unit). */
  pesos(value: string, field: string): number {
    const rounded = Number(new Big(value).round(0, Big.roundHalfUp).toFixed(0));
    if (rounded > MAX_AMOUNT) this.fail(field, `must be at most ${MAX_AMOUNT}`);
    return rounded;
  }

  /** RUTType `[0-9]+-([0-9]|K)`, check digit judged by rut.js; canonical `<body>-<digit>`. */
  rut(node: Node, field: string): string {
    const value = this.text(node, field, true);
    if (!/^[0-9]{1,9}-[0-9Kk]$/.test(value) || !validRut(value)) this.fail(field, `is not a valid RUT ("${value.slice(0, 20)}")`);
    const compact = cleanRut(value);
    return `${compact.slice(0, -1)}-${compact.slice(-1).toUpperCase()}`;
  }

  date(node: Node, field: string, required: boolean): string | null {
    const value = this.text(node, field, required as false);
    if (value === null) return null;
    if (!isIsoDate(value)) this.fail(field, `must be a date YYYY-MM-DD, not "${String(value).slice(0, 20)}"`);
    return value;
  }
}

function readDocument(dte: Element, position: number, path: string): DteDocument {
  const body = child(dte, 'Documento') ?? child(dte, 'Exportaciones') ?? child(dte, 'Liquidacion');
  const at = `${path}.${child(dte, 'Documento') ? 'Documento' : child(dte, 'Exportaciones') ? 'Exportaciones' : 'Liquidacion'}`;
  const fields = new DocumentFields(position, at);
  if (body === undefined) fields.fail('Documento', 'is missing');
  const header = child(body, 'Encabezado');
  if (header === undefined) fields.fail('Encabezado', 'is missing');
  const idDoc = child(header, 'IdDoc');
  // Read first, so that every later refusal names the document by its folio too.
  const folio = fields.folioOf(idDoc, 'Encabezado.IdDoc.Folio');
  const typeText = fields.text(idDoc, 'Encabezado.IdDoc.TipoDTE', true);
  const dteType = Number(typeText);
  if (!/^[0-9]{2,3}$/.test(typeText) || !DTE_TYPES.has(dteType)) fields.fail('Encabezado.IdDoc.TipoDTE', `is not an SII document type ("${typeText.slice(0, 10)}")`);
  const issuer = child(header, 'Emisor');
  const receiver = child(header, 'Receptor');
  const totals = child(header, 'Totales');
  if (totals === undefined) fields.fail('Encabezado.Totales.MntTotal', 'is missing');
  // Boletas name the issuer RznSocEmisor (EnvioBOLETA_v11.xsd); other documents RznSoc.
  const issuerName =
    fields.text(issuer, 'Encabezado.Emisor.RznSoc', false) ?? fields.text(issuer, 'Encabezado.Emisor.RznSocEmisor', false) ?? fields.fail('Encabezado.Emisor.RznSoc', 'is missing');
  const references: DteReference[] = [];
  childrenNamed(body, 'Referencia').forEach((node, i) => {
    const name = `Referencia[${i}]`;
    const lineNumber = fields.text(node, `${name}.NroLinRef`, false);
    const code = fields.text(node, `${name}.CodRef`, false);
    references.push({
      lineNumber: lineNumber !== null && /^[0-9]{1,2}$/.test(lineNumber) ? Number(lineNumber) : null,
      documentType: fields.text(node, `${name}.TpoDocRef`, true),
      folio: fields.text(node, `${name}.FolioRef`, true),
      date: fields.date(node, `${name}.FchRef`, false),
      code: code !== null && /^[1-3]$/.test(code) ? Number(code) : null,
      reason: fields.text(node, `${name}.RazonRef`, false),
    });
  });
  return {
    dteType,
    folio,
    issuerTaxId: fields.rut(issuer, 'Encabezado.Emisor.RUTEmisor'),
    issuerName,
    receiverTaxId: fields.rut(receiver, 'Encabezado.Receptor.RUTRecep'),
    receiverName: fields.text(receiver, 'Encabezado.Receptor.RznSocRecep', false),
    issueDate: fields.date(idDoc, 'Encabezado.IdDoc.FchEmis', true)!,
    ...(EXPORT_DTE_TYPES.has(dteType) ? exportAmounts(fields, totals, child(header, 'OtraMoneda')) : pesoAmounts(fields, totals, dteType === LIQUIDACION_FACTURA)),
    references,
  };
}

type Amounts = Pick<DteDocument, 'netAmount' | 'exemptAmount' | 'taxAmount' | 'totalAmount' | 'foreignTotals'>;

/** `Documento` and `Liquidacion`: integer peso amounts; a liquidación-factura's may be negative (ValorType). */
function pesoAmounts(fields: DocumentFields, totals: Node, signed: boolean): Amounts {
  return {
    netAmount: fields.amount(totals, 'Encabezado.Totales.MntNeto', false, signed),
    exemptAmount: fields.amount(totals, 'Encabezado.Totales.MntExe', false, signed),
    taxAmount: fields.amount(totals, 'Encabezado.Totales.IVA', false, signed),
    totalAmount: fields.amount(totals, 'Encabezado.Totales.MntTotal', true, signed),
    foreignTotals: null,
  };
}

/**
 * `Exportaciones` (110-112): `Totales` holds `TpoMoneda`, `MntExe` and `MntTotal` in that
 * currency with up to 4 decimals (kept exact); an export has no net or VAT. The peso amounts
 * are the peso figures the document states: its own totals when `TpoMoneda` is `PESO CL`, else
 * `OtraMoneda` when that is `PESO CL` (with `TpoCambio`), else none (null).
 */
function exportAmounts(fields: DocumentFields, totals: Node, other: Node): Amounts {
  const currencyName = fields.text(totals, 'Encabezado.Totales.TpoMoneda', true);
  if (currencyName.length > 15) fields.fail('Encabezado.Totales.TpoMoneda', `is not a customs currency name ("${currencyName.slice(0, 20)}")`);
  const rule = 'a non-negative decimal amount with at most 14 integer and 4 decimal digits';
  const totalAmount = fields.decimal(totals, 'Encabezado.Totales.MntTotal', true, FOREIGN_AMOUNT, rule)!;
  const exemptAmount = fields.decimal(totals, 'Encabezado.Totales.MntExe', false, FOREIGN_AMOUNT, rule) ?? '0';
  type Pesos = { exempt: string; total: string; exemptField: string; totalField: string };
  let pesos: Pesos | null =
    currencyName === PESO_CL ? { exempt: exemptAmount, total: totalAmount, exemptField: 'Encabezado.Totales.MntExe', totalField: 'Encabezado.Totales.MntTotal' } : null;
  let exchangeRate: string | null = null;
  if (other !== undefined && pesos === null && fields.text(other, 'Encabezado.OtraMoneda.TpoMoneda', true) === PESO_CL) {
    const otherRule = 'a non-negative decimal amount';
    pesos = {
      exempt: fields.decimal(other, 'Encabezado.OtraMoneda.MntExeOtrMnda', false, OTHER_CURRENCY_AMOUNT, otherRule) ?? '0',
      total: fields.decimal(other, 'Encabezado.OtraMoneda.MntTotOtrMnda', true, OTHER_CURRENCY_AMOUNT, otherRule)!,
      exemptField: 'Encabezado.OtraMoneda.MntExeOtrMnda',
      totalField: 'Encabezado.OtraMoneda.MntTotOtrMnda',
    };
    exchangeRate = fields.decimal(other, 'Encabezado.OtraMoneda.TpoCambio', false, EXCHANGE_RATE, 'a decimal with at most 6 integer and 4 decimal digits');
    if (exchangeRate === '0') fields.fail('Encabezado.OtraMoneda.TpoCambio', 'must be above zero');
  }
  const foreignTotals: DteForeignTotals = { currency: ISO_BY_CUSTOMS_CURRENCY[currencyName] ?? null, currencyName, exemptAmount, totalAmount, exchangeRate };
  return {
    netAmount: 0,
    exemptAmount: pesos === null ? null : fields.pesos(pesos.exempt, pesos.exemptField),
    taxAmount: 0,
    totalAmount: pesos === null ? null : fields.pesos(pesos.total, pesos.totalField),
    foreignTotals,
  };
}

/**
 * saxes, strict and without DTD processing. The file is refused before any parsing when it
 * carries a DOCTYPE or entity declarations (the only way to external references and entity
 * expansion), and when it is not well-formed (the validator's line and column).
 */
@Injectable()
export class SiiDteXmlReader extends DteXmlReader {
  read(body: Buffer): DteDocument[] {
    if (body.length === 0) throw invalid('The body is empty: send the DTE XML', { path: 'body' });
    const text = decode(body);
    const forbidden = /<!(DOCTYPE|ENTITY|ELEMENT|ATTLIST|NOTATION)\b/i.exec(text);
    if (forbidden) {
      const before = text.slice(0, forbidden.index).split('\n');
      throw invalid(`The file declares a ${forbidden[1].toUpperCase()}: document type declarations, entities and external references are refused`, {
        path: 'body',
        line: before.length,
        column: before[before.length - 1].length + 1,
      });
    }
    const documentRoot = parse(text).children[0];
    const rootName = documentRoot?.name;
    if (rootName === 'DTE') return [readDocument(documentRoot!, 1, 'DTE')];
    if (rootName === 'EnvioDTE' || rootName === 'EnvioBOLETA') {
      const documents = childrenNamed(child(documentRoot, 'SetDTE'), 'DTE');
      if (documents.length === 0) throw invalid(`${rootName} holds no DTE`, { path: `${rootName}.SetDTE.DTE` });
      if (documents.length > MAX_DOCUMENTS[rootName]) {
        throw invalid(`${rootName} holds ${documents.length} documents; at most ${MAX_DOCUMENTS[rootName]} are taken`, { path: `${rootName}.SetDTE.DTE` });
      }
      return documents.map((dte, i) => readDocument(dte, i + 1, `${rootName}.SetDTE.DTE[${i}]`));
    }
    throw invalid(`The root element is ${rootName ?? 'missing'}: send a DTE, an EnvioDTE or an EnvioBOLETA`, { path: 'body', root: rootName ?? null });
  }
}
