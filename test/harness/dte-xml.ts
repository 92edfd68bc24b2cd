/**
 * Builds SII DTE XML the way issuers' software writes it (DTE_v10.xsd, EnvioDTE_v10.xsd,
 * EnvioBOLETA_v11.xsd; phase2-anchors section 1): namespace, Documento with its ID, TED stamp,
 * optional ds:Signature, encoded ISO-8859-1 unless told otherwise.
 */
export interface DteSpec {
  type: number;
  folio: string;
  issueDate?: string;
  issuerRut: string;
  issuerName?: string;
  receiverRut: string;
  receiverName?: string;
  net?: number | string;
  exempt?: number | string;
  tax?: number | string;
  total?: number | string | null;
  references?: Array<{ type: string; folio: string; date?: string; code?: number; reason?: string }>;
  signed?: boolean;
  /** Omit the Folio element. */
  withoutFolio?: boolean;
  /** Export documents (110-112): `Totales.TpoMoneda` (default `DOLAR USA`; null omits it). */
  currency?: string | null;
  /** Export documents: `OtraMoneda` (usually the peso figures). */
  otherCurrency?: { name: string; rate?: string; exempt?: string; total: string };
  /** Liquidación-factura (43): the commissions the agent charges (`Comisiones`). */
  commissions?: { net: number; tax: number };
}

const EXPORT_TYPES = new Set([110, 111, 112]);

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

const SIGNATURE = `<Signature xmlns="http://www.w3.org/2000/09/xmldsig#"><SignedInfo><CanonicalizationMethod Algorithm="http://www.w3.org/TR/2001/REC-xml-c14n-20010315"/><SignatureMethod Algorithm="http://www.w3.org/2000/09/xmldsig#rsa-sha1"/><Reference URI="#ID"><Transforms><Transform Algorithm="http://www.w3.org/2000/09/xmldsig#enveloped-signature"/></Transforms><DigestMethod Algorithm="http://www.w3.org/2000/09/xmldsig#sha1"/><DigestValue>hlmQtu/AyjUjTDhM3852wvRCr8w=</DigestValue></Reference></SignedInfo><SignatureValue>JG1Ig0pvSIH85kIKGRZUjkyX6CNaY08Y94j4UegTgDe8+wl61GzqjdR1rfOK9BGn93AMOo6aiAgolW0k/XklNVtM/ZzpNNS3d/fYVa1q509mAMSXbelxSM3bjoa7H6Wzd/mV1PpQ8zK5gw7mgMMP4IKxHyS92G81GEguSmzcQmA=</SignatureValue><KeyInfo><KeyValue><RSAKeyValue><Modulus>tNEknkb1kHiD1OOAWlLKkcH/UP5UGa6V6MYso++JB+vYMg2OXFROAF7G8BNFFPQx+4EgDJt9a+jUnt0HqjmChQ==</Modulus><Exponent>AQAB</Exponent></RSAKeyValue></KeyValue><X509Data><X509Certificate>MIIEgjCCA+ugAwIBAgIEAQAApzANBgkqhkiG9w0BAQUFADCBtTELMAkGA1UEBhMCQ0w=</X509Certificate></X509Data></KeyInfo></Signature>`;

/** The TED stamp and the signature time (the signature itself follows the document when `signed`). */
function stamp(d: DteSpec, total: number | string | null | undefined, item: string): string {
  return `<TED version="1.0"><DD><RE>${d.issuerRut}</RE><TD>${d.type}</TD><F>${d.folio}</F><FE>${d.issueDate ?? '2026-06-10'}</FE><RR>${d.receiverRut}</RR><RSR>Receptor</RSR><MNT>${total}</MNT><IT1>${esc(item)}</IT1><TSTED>2026-06-10T10:00:00</TSTED></DD><FRMT algoritmo="SHA1withRSA">dGVzdA==</FRMT></TED><TmstFirma>2026-06-10T10:00:00</TmstFirma>`;
}

function referencesOf(d: DteSpec): string {
  return (d.references ?? [])
    .map(
      (r, i) =>
        `<Referencia><NroLinRef>${i + 1}</NroLinRef><TpoDocRef>${r.type}</TpoDocRef><FolioRef>${r.folio}</FolioRef><FchRef>${r.date ?? '2026-06-01'}</FchRef>${r.code ? `<CodRef>${r.code}</CodRef>` : ''}${r.reason ? `<RazonRef>${esc(r.reason)}</RazonRef>` : ''}</Referencia>`,
    )
    .join('');
}

/**
 * An export document as DTE_v10.xsd writes it: `Exportaciones`, the foreign buyer (`Extranjero`),
 * customs data (`Aduana`), `Totales` in the sale currency with decimals (TpoMoneda, MntExe,
 * MntTotal), `OtraMoneda` (the peso figures), exempt lines (`IndExe` 1) priced in that currency.
 */
function exportElement(d: DteSpec): string {
  const id = `F${d.folio}T${d.type}`;
  const total = d.total === undefined ? d.exempt : d.total;
  const currency = d.currency === undefined ? 'DOLAR USA' : d.currency;
  const amount = (tag: string, value: number | string | undefined | null) => (value === undefined || value === null ? '' : `<${tag}>${value}</${tag}>`);
  const other = d.otherCurrency
    ? `<OtraMoneda><TpoMoneda>${d.otherCurrency.name}</TpoMoneda>${amount('TpoCambio', d.otherCurrency.rate)}${amount('MntExeOtrMnda', d.otherCurrency.exempt)}<MntTotOtrMnda>${d.otherCurrency.total}</MntTotOtrMnda></OtraMoneda>`
    : '';
  const item = 'Vino tinto Carménère reserva, caja 12 botellas';
  return `<DTE version="1.0"><Exportaciones ID="${id}"><Encabezado><IdDoc><TipoDTE>${d.type}</TipoDTE>${d.withoutFolio ? '' : `<Folio>${d.folio}</Folio>`}<FchEmis>${d.issueDate ?? '2026-06-10'}</FchEmis><FmaPagExp>2</FmaPagExp></IdDoc><Emisor><RUTEmisor>${d.issuerRut}</RUTEmisor><RznSoc>${esc(d.issuerName ?? 'Viña Emisora SpA')}</RznSoc><GiroEmis>Elaboración de vinos</GiroEmis><Acteco>110200</Acteco><DirOrigen>Camino a Pirque 1500</DirOrigen><CmnaOrigen>Pirque</CmnaOrigen></Emisor><Receptor><RUTRecep>${d.receiverRut}</RUTRecep><RznSocRecep>${esc(d.receiverName ?? 'Wine Importers LLC')}</RznSocRecep><Extranjero><NumId>EIN 12-3456789</NumId><Nacionalidad>225</Nacionalidad></Extranjero><GiroRecep>Importer</GiroRecep><DirRecep>500 Market St, San Francisco</DirRecep></Receptor><Transporte><Aduana><CodModVenta>1</CodModVenta><CodClauVenta>2</CodClauVenta><TotClauVenta>${total ?? 0}</TotClauVenta><CodViaTransp>1</CodViaTransp><CodPtoEmbarque>906</CodPtoEmbarque><CodPtoDesemb>131</CodPtoDesemb><TotBultos>120</TotBultos><CodPaisRecep>225</CodPaisRecep><CodPaisDestin>225</CodPaisDestin></Aduana></Transporte><Totales>${currency === null ? '' : `<TpoMoneda>${currency}</TpoMoneda>`}${amount('MntExe', d.exempt)}${amount('MntTotal', total)}</Totales>${other}</Encabezado><Detalle><NroLinDet>1</NroLinDet><IndExe>1</IndExe><NmbItem>${esc(item)}</NmbItem><QtyItem>120</QtyItem><UnmdItem>CAJ</UnmdItem><PrcItem>1</PrcItem><MontoItem>${d.exempt ?? total ?? 0}</MontoItem></Detalle>${referencesOf(d)}${stamp(d, total, item)}</Exportaciones>${d.signed ? SIGNATURE.replace('#ID', `#${id}`) : ''}</DTE>`;
}

/**
 * A liquidación-factura (43) as DTE_v10.xsd writes it: `Liquidacion`, whose totals (ValorType)
 * subtract the agent's commissions (`Comisiones`) and may be negative.
 */
function liquidacionElement(d: DteSpec): string {
  const id = `F${d.folio}T${d.type}`;
  const commissions = d.commissions ?? { net: 0, tax: 0 };
  const total = d.total === undefined ? Number(d.net ?? 0) + Number(d.exempt ?? 0) + Number(d.tax ?? 0) - commissions.net - commissions.tax : d.total;
  const amount = (tag: string, value: number | string | undefined | null) => (value === undefined || value === null ? '' : `<${tag}>${value}</${tag}>`);
  const item = 'Venta de uva por cuenta de terceros';
  return `<DTE version="1.0"><Liquidacion ID="${id}"><Encabezado><IdDoc><TipoDTE>43</TipoDTE>${d.withoutFolio ? '' : `<Folio>${d.folio}</Folio>`}<FchEmis>${d.issueDate ?? '2026-06-10'}</FchEmis></IdDoc><Emisor><RUTEmisor>${d.issuerRut}</RUTEmisor><RznSoc>${esc(d.issuerName ?? 'Comisionista SpA')}</RznSoc><GiroEmis>Corretaje</GiroEmis><Acteco>461001</Acteco></Emisor><Receptor><RUTRecep>${d.receiverRut}</RUTRecep><RznSocRecep>${esc(d.receiverName ?? 'Mandante Ltda')}</RznSocRecep></Receptor><Totales>${amount('MntNeto', d.net)}${amount('MntExe', d.exempt)}<TasaIVA>19</TasaIVA>${amount('IVA', d.tax)}<Comisiones><ValComNeto>${commissions.net}</ValComNeto><ValComExe>0</ValComExe><ValComIVA>${commissions.tax}</ValComIVA></Comisiones>${amount('MntTotal', total)}</Totales></Encabezado><Detalle><NroLinDet>1</NroLinDet><NmbItem>${item}</NmbItem><MontoItem>${d.net ?? 0}</MontoItem></Detalle>${referencesOf(d)}${stamp(d, total, item)}</Liquidacion>${d.signed ? SIGNATURE.replace('#ID', `#${id}`) : ''}</DTE>`;
}

export function dteElement(d: DteSpec): string {
  if (EXPORT_TYPES.has(d.type)) return exportElement(d);
  if (d.type === 43) return liquidacionElement(d);
  const amount = (tag: string, value: number | string | undefined | null) => (value === undefined || value === null ? '' : `<${tag}>${value}</${tag}>`);
  const total = d.total === undefined ? Number(d.net ?? 0) + Number(d.exempt ?? 0) + Number(d.tax ?? 0) : d.total;
  const id = `F${d.folio}T${d.type}`;
  const issuerNameTag = d.type === 39 || d.type === 41 ? 'RznSocEmisor' : 'RznSoc';
  const giroTag = d.type === 39 || d.type === 41 ? 'GiroEmisor' : 'GiroEmis';
  const references = referencesOf(d);
  return `<DTE version="1.0"><Documento ID="${id}"><Encabezado><IdDoc><TipoDTE>${d.type}</TipoDTE>${d.withoutFolio ? '' : `<Folio>${d.folio}</Folio>`}<FchEmis>${d.issueDate ?? '2026-06-10'}</FchEmis><FmaPago>2</FmaPago><FchVenc>2026-07-10</FchVenc></IdDoc><Emisor><RUTEmisor>${d.issuerRut}</RUTEmisor><${issuerNameTag}>${esc(d.issuerName ?? 'Emisor SpA')}</${issuerNameTag}><${giroTag}>Servicios</${giroTag}><Acteco>620200</Acteco><DirOrigen>Av. Providencia 1234</DirOrigen><CmnaOrigen>Providencia</CmnaOrigen></Emisor><Receptor><RUTRecep>${d.receiverRut}</RUTRecep>${d.receiverName === undefined ? '<RznSocRecep>Receptor Ltda</RznSocRecep>' : d.receiverName === '' ? '' : `<RznSocRecep>${esc(d.receiverName)}</RznSocRecep>`}<GiroRecep>Comercio</GiroRecep></Receptor><Totales>${amount('MntNeto', d.net)}${amount('MntExe', d.exempt)}${d.tax !== undefined && d.type !== 39 ? '<TasaIVA>19</TasaIVA>' : ''}${amount('IVA', d.tax)}${amount('MntTotal', total)}</Totales></Encabezado><Detalle><NroLinDet>1</NroLinDet><NmbItem>Servicio mensual</NmbItem><QtyItem>1</QtyItem><PrcItem>${d.net ?? d.exempt ?? 0}</PrcItem><MontoItem>${d.net ?? d.exempt ?? 0}</MontoItem></Detalle>${references}<TED version="1.0"><DD><RE>${d.issuerRut}</RE><TD>${d.type}</TD><F>${d.folio}</F><FE>${d.issueDate ?? '2026-06-10'}</FE><RR>${d.receiverRut}</RR><RSR>Receptor</RSR><MNT>${total}</MNT><IT1>Servicio mensual</IT1><TSTED>2026-06-10T10:00:00</TSTED></DD><FRMT algoritmo="SHA1withRSA">dGVzdA==</FRMT></TED><TmstFirma>2026-06-10T10:00:00</TmstFirma></Documento>${d.signed ? SIGNATURE.replace('#ID', `#${id}`) : ''}</DTE>`;
}

export type XmlEncoding = 'ISO-8859-1' | 'UTF-8' | 'windows-1252';

function encode(text: string, encoding: XmlEncoding): Buffer {
  const declared = `<?xml version="1.0" encoding="${encoding}"?>\n${text}`;
  return Buffer.from(declared, encoding === 'UTF-8' ? 'utf8' : 'latin1');
}

export function singleDte(d: DteSpec, encoding: XmlEncoding = 'ISO-8859-1'): Buffer {
  return encode(dteElement(d).replace('<DTE version="1.0">', '<DTE xmlns="http://www.sii.cl/SiiDte" version="1.0">'), encoding);
}

export function envioDte(
  documents: DteSpec[],
  options: { senderRut?: string; receiverRut?: string; boleta?: boolean; signed?: boolean; encoding?: XmlEncoding } = {},
): Buffer {
  const root = options.boleta ? 'EnvioBOLETA' : 'EnvioDTE';
  const counts = new Map<number, number>();
  for (const d of documents) counts.set(d.type, (counts.get(d.type) ?? 0) + 1);
  const subtotals = [...counts].map(([type, n]) => `<SubTotDTE><TpoDTE>${type}</TpoDTE><NroDTE>${n}</NroDTE></SubTotDTE>`).join('');
  const caratula = `<Caratula version="1.0"><RutEmisor>${documents[0]?.issuerRut ?? '76086428-5'}</RutEmisor><RutEnvia>${options.senderRut ?? '12345678-5'}</RutEnvia><RutReceptor>${options.receiverRut ?? '60803000-K'}</RutReceptor><FchResol>2014-08-22</FchResol><NroResol>80</NroResol><TmstFirmaEnv>2026-06-10T10:00:00</TmstFirmaEnv>${subtotals}</Caratula>`;
  const body = `<${root} xmlns="http://www.sii.cl/SiiDte" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="http://www.sii.cl/SiiDte ${root}_v10.xsd" version="1.0"><SetDTE ID="SetDoc">${caratula}${documents.map(dteElement).join('')}</SetDTE>${options.signed ? SIGNATURE.replace('#ID', '#SetDoc') : ''}</${root}>`;
  return encode(body, options.encoding ?? 'ISO-8859-1');
}
