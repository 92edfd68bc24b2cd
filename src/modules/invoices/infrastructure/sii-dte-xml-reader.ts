import Big from 'big.js';
import { clean as cleanRut, validate as validRut } from 'rut.js';
import { DomainError, isIsoDate, MAX_AMOUNT } from '../../../../libs/shared-kernel/src';
import { readBoundedXml, XmlElement, XmlKeep, XmlKeepRule, XmlRefusal } from '../../../platform/imports/bounded-xml';
import { DteXmlReader } from '../application/dte-xml-reader';
import { DteDocument, DteForeignTotals, DteReference, EXPORT_DTE_TYPES, LIQUIDACION_FACTURA } from '../domain/dte';

/** Document types of the SII (phase2-anchors section 1). */
const DTE_TYPES = new Set([33, 34, 39, 41, 43, 46, 52, 56, 61, 110, 111, 112]);

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

/** Names of ISO-8859-1 (Node's `latin1` is true ISO-8859-1). */
const LATIN1_NAMES = new Set(['iso-8859-1', 'iso8859-1', 'latin1', 'latin-1', 'l1', 'iso_8859-1', 'iso_8859-1:1987', 'iso-ir-100', 'csisolatin1', 'ibm819', 'cp819']);
const WINDOWS_1252_NAMES = new Set(['windows-1252', 'cp1252', 'x-cp1252']);
const UTF8_NAMES = new Set(['utf-8', 'utf8']);
/** The longest XML declaration read (`<?xml` to `?>`, spaces included); a longer one is refused. */
const DECLARATION_MAX = 4096;

/**
 * The encoding the file's XML declaration names (issue 33: the whole declaration, however it is
 * padded, read by the XML grammar: VersionInfo, EncodingDecl, SDDecl), `utf-8` without one. A
 * file in UTF-16 or UTF-32 (a byte order mark, or NULs between the declaration's letters), a
 * declaration that breaks the grammar and an encoding name that is not one are refused.
 */
function declaredEncoding(body: Buffer): string {
  const utf16or32 =
    (body.length >= 2 && ((body[0] === 0xff && body[1] === 0xfe) || (body[0] === 0xfe && body[1] === 0xff))) ||
    (body.length >= 4 && ((body[0] === 0 && body[1] === 0) || (body[0] === 0x3c && body[1] === 0) || (body[0] === 0 && body[1] === 0x3c)));
  if (utf16or32) throw invalid('The file is in UTF-16 or UTF-32: send ISO-8859-1, windows-1252 or UTF-8', { path: 'body', encoding: 'utf-16' });
  const bom = body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf ? 3 : 0;
  if (body.subarray(bom, bom + 5).toString('latin1') !== '<?xml') return 'utf-8';
  const end = body.subarray(bom, bom + DECLARATION_MAX).indexOf('?>');
  if (end < 0) throw invalid(`The XML declaration does not end with ?> within ${DECLARATION_MAX} bytes`, { path: 'body', line: 1, column: 1 });
  const declaration = body.subarray(bom, bom + end + 2).toString('latin1');
  const grammar = /^<\?xml[ \t\r\n]+version[ \t\r\n]*=[ \t\r\n]*(["'])1\.[0-9]+\1(?:[ \t\r\n]+encoding[ \t\r\n]*=[ \t\r\n]*(["'])([^"']*)\2)?(?:[ \t\r\n]+standalone[ \t\r\n]*=[ \t\r\n]*(["'])(?:yes|no)\4)?[ \t\r\n]*\?>$/.exec(declaration);
  if (!grammar) throw invalid('The XML declaration is malformed: <?xml version="1.0" encoding="..."?> is expected', { path: 'body', line: 1, column: 1 });
  if (grammar[3] === undefined) return 'utf-8';
  const name = grammar[3];
  // EncName of the XML grammar; no registered charset name is longer than 40 characters.
  if (!/^[A-Za-z][A-Za-z0-9._-]{0,39}$/.test(name)) {
    throw invalid(`The XML declaration names no encoding ("${name.slice(0, 40)}${name.length > 40 ? '…' : ''}")`, { path: 'body', encoding: name.slice(0, 40) });
  }
  return name.toLowerCase();
}

/**
 * The text of the file in the encoding its XML declaration names (D65a, D65b): ISO-8859-1 as the
 * SII writes it, windows-1252 as some issuers write it, or UTF-8 (the XML default). Bytes that
 * are not UTF-8 in a UTF-8 file are refused, never replaced.
 */
function decode(body: Buffer): string {
  const declared = declaredEncoding(body);
  if (LATIN1_NAMES.has(declared)) return body.toString('latin1');
  if (WINDOWS_1252_NAMES.has(declared)) return new TextDecoder('windows-1252').decode(body);
  if (UTF8_NAMES.has(declared)) {
    try {
      return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(body);
    } catch {
      throw invalid('The file declares UTF-8 but holds bytes that are not UTF-8', { path: 'body' });
    }
  }
  throw invalid(`The file's encoding "${declared}" is not read: send ISO-8859-1, windows-1252 or UTF-8`, { path: 'body', encoding: declared });
}

type Element = XmlElement;

/** Free text of the SII's schemas (DTE_v10.xsd), refused beyond its length. */
const text = (maxLength: number) => ({ maxLength });
/** A typed field (amount, date, RUT, code): its own rule judges it; this only bounds what is read. */
const TYPED = { maxLength: 40 };
/** DTE_v10.xsd: a document holds at most 40 references. */
export const MAX_REFERENCES = 40;
const DOCUMENT_BODY: XmlKeepRule = {
  children: {
    Encabezado: {
      children: {
        IdDoc: { children: { TipoDTE: TYPED, Folio: TYPED, FchEmis: TYPED } },
        Emisor: { children: { RUTEmisor: TYPED, RznSoc: text(100), RznSocEmisor: text(100) } },
        Receptor: { children: { RUTRecep: TYPED, RznSocRecep: text(100) } },
        Totales: { children: { MntNeto: TYPED, MntExe: TYPED, IVA: TYPED, MntTotal: TYPED, TpoMoneda: text(15) } },
        OtraMoneda: { children: { TpoMoneda: text(15), MntExeOtrMnda: TYPED, MntTotOtrMnda: TYPED, TpoCambio: TYPED } },
      },
    },
    Referencia: {
      maxOccurs: MAX_REFERENCES,
      children: { NroLinRef: TYPED, TpoDocRef: text(3), FolioRef: text(18), FchRef: TYPED, CodRef: TYPED, RazonRef: text(90) },
    },
  },
};
const DTE_RULE: XmlKeepRule = { children: { Documento: DOCUMENT_BODY, Exportaciones: DOCUMENT_BODY, Liquidacion: DOCUMENT_BODY } };
/** EnvioDTE_v10.xsd and EnvioBOLETA_v11.xsd: at most 2,000 and 500 documents. */
const KEEP: XmlKeep = {
  DTE: DTE_RULE,
  EnvioDTE: { children: { SetDTE: { children: { DTE: { ...DTE_RULE, maxOccurs: 2000 } } } } },
  EnvioBOLETA: { children: { SetDTE: { children: { DTE: { ...DTE_RULE, maxOccurs: 500 } } } } },
};
/**
 * D2b: the SII's schemas nest at most about 11 elements (EnvioDTE, SetDTE, DTE, Documento, TED,
 * DD, CAF, DA, RSAPK, M; a signature's KeyInfo as deep): 24 leaves room and stops an unclosed
 * flood at once.
 */
export const MAX_DEPTH = 24;
/** D2b: at most 500,000 elements in a file (2,000 documents of 250 elements each; 5 MB holds fewer). */
export const MAX_ELEMENTS = 500_000;

/** Where a refusal happened: the document (its position, path and folio as read so far) and the field. */
function placeOf(within: Element[]): { document: number | null; documentPath: string; folio: string | null; field: string | null } {
  const root = within[0];
  let i = 1;
  let documentPath = root?.name ?? 'body';
  let position: number | null = null;
  if (root?.name === 'DTE') position = 1;
  else if (within[1]?.name === 'SetDTE' && within[2]?.name === 'DTE') {
    position = within[1].children.indexOf(within[2]) + 1 || within[1].children.length + 1;
    documentPath = `${root.name}.SetDTE.DTE[${position - 1}]`;
    i = 3;
  } else return { document: null, documentPath, folio: null, field: within.slice(1).map((e) => e.name).join('.') || null };
  const body = within[i];
  if (!body) return { document: position, documentPath, folio: null, field: null };
  documentPath = `${documentPath}.${body.name}`;
  const folio = textOf(child(child(child(body, 'Encabezado'), 'IdDoc'), 'Folio')) || null;
  const field = within
    .slice(i + 1)
    .map((element, k, path) => {
      const parent = k === 0 ? body : path[k - 1];
      if (element.name !== 'Referencia') return element.name;
      const index = parent.children.filter((c) => c.name === 'Referencia').indexOf(element);
      return `Referencia[${index < 0 ? parent.children.filter((c) => c.name === 'Referencia').length : index}]`;
    })
    .join('.');
  return { document: position, documentPath, folio, field: field || null };
}

function refusal(r: XmlRefusal): DomainError {
  const place = placeOf(r.within);
  const where = place.document === null ? '' : `document ${place.document}${place.folio ? ` (folio ${place.folio})` : ''}: `;
  const documentParams = place.document === null ? {} : { document: place.document, folio: place.folio };
  const position = { line: r.line, column: r.column };
  switch (r.reason) {
    case 'malformed':
      return invalid(`The XML is not well-formed at line ${r.line}, column ${r.column}: ${r.message}`, { path: 'body', ...position });
    case 'doctype':
      return invalid('The file declares a DOCTYPE: document type declarations, entities and external references are refused', { path: 'body', ...position });
    case 'depth':
      return invalid(`${where}elements nest deeper than ${r.limit} levels at line ${r.line}, column ${r.column} (the SII's schemas nest far less)`, {
        path: place.document === null ? 'body' : place.documentPath,
        ...documentParams,
        limit: r.limit,
        ...position,
      });
    case 'elements':
      return invalid(`The file holds more than ${r.limit.toLocaleString('en-US')} elements (line ${r.line}, column ${r.column})`, { path: 'body', ...documentParams, limit: r.limit, ...position });
    case 'length':
    case 'occurrences': {
      const field = place.field ?? r.within[r.within.length - 1]?.name ?? 'body';
      if (r.reason === 'occurrences' && r.within[r.within.length - 1]?.name === 'DTE') {
        // Documents beyond an EnvioDTE's or EnvioBOLETA's limit.
        const name = r.within[0]?.name ?? 'body';
        return invalid(`${name} holds more than ${r.limit} documents; at most ${r.limit} are taken`, { path: `${name}.SetDTE.DTE`, limit: r.limit, ...position });
      }
      const message =
        r.reason === 'length'
          ? `${field} is longer than ${r.limit} characters (DTE_v10.xsd)`
          : `${field.replace(/\[\d+\]$/, '')} appears more than ${r.limit} times (DTE_v10.xsd: at most ${r.limit})`;
      const named = r.reason === 'length' ? field : field.replace(/\[\d+\]$/, '');
      return invalid(`${where}${message}`, { path: `${place.documentPath}.${named}`, ...documentParams, field: named, limit: r.limit, ...position });
    }
  }
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

  /**
   * D63a: a folio is an integer; leading zeros are ignored (`09270702` is folio 9270702, so a
   * file repeating it with zeros is a duplicate), and 0 or anything but digits is refused.
   */
  folioOf(node: Node, field: string): string {
    const written = this.text(node, field, true);
    if (!/^[0-9]{1,18}$/.test(written)) this.fail(field, 'must be a positive integer (digits only)');
    const folio = written.replace(/^0+/, '');
    this.folio = written;
    if (folio === '') this.fail(field, 'must be a positive integer, not 0');
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
 * D2b: saxes as a bounded stream (readBoundedXml): strict, without DTD processing, keeping only
 * the fields read, within the SII schema's bounds (depth, element count, field lengths, at most
 * 40 references a document). The file is refused before any parsing when it carries a DOCTYPE or
 * entity declarations (the only way to external references and entity expansion), and when it is
 * not well-formed (the parser's line and column).
 * The service runs it in an import-parsing worker (`parse` below, OffThreadDteXmlReader), not on
 * its main thread.
 */
export class SiiDteXmlReader extends DteXmlReader {
  async read(body: Buffer): Promise<DteDocument[]> {
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
    return this.documentsOf(readBoundedXml(text, { keep: KEEP, maxDepth: MAX_DEPTH, maxElements: MAX_ELEMENTS }, refusal).children[0]);
  }

  private documentsOf(documentRoot: Element | undefined): DteDocument[] {
    const rootName = documentRoot?.name;
    if (rootName === 'DTE') return [readDocument(documentRoot!, 1, 'DTE')];
    if (rootName === 'EnvioDTE' || rootName === 'EnvioBOLETA') {
      const documents = childrenNamed(child(documentRoot, 'SetDTE'), 'DTE');
      if (documents.length === 0) throw invalid(`${rootName} holds no DTE`, { path: `${rootName}.SetDTE.DTE` });
      return documents.map((dte, i) => readDocument(dte, i + 1, `${rootName}.SetDTE.DTE[${i}]`));
    }
    throw invalid(`The root element is ${rootName ?? 'missing'}: send a DTE, an EnvioDTE or an EnvioBOLETA`, { path: 'body', root: rootName ?? null });
  }
}

/** The worker's entry (platform/imports/parse-worker.ts): the documents of the file, or its refusal. */
export function parse(body: Buffer): Promise<DteDocument[]> {
  return new SiiDteXmlReader().read(body);
}
