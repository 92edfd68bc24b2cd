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
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

const SIGNATURE = `<Signature xmlns="http://www.w3.org/2000/09/xmldsig#"><SignedInfo><CanonicalizationMethod Algorithm="http://www.w3.org/TR/2001/REC-xml-c14n-20010315"/><SignatureMethod Algorithm="http://www.w3.org/2000/09/xmldsig#rsa-sha1"/><Reference URI="#ID"><Transforms><Transform Algorithm="http://www.w3.org/2000/09/xmldsig#enveloped-signature"/></Transforms><DigestMethod Algorithm="http://www.w3.org/2000/09/xmldsig#sha1"/><DigestValue>hlmQtu/AyjUjTDhM3852wvRCr8w=</DigestValue></Reference></SignedInfo><SignatureValue>JG1Ig0pvSIH85kIKGRZUjkyX6CNaY08Y94j4UegTgDe8+wl61GzqjdR1rfOK9BGn93AMOo6aiAgolW0k/XklNVtM/ZzpNNS3d/fYVa1q509mAMSXbelxSM3bjoa7H6Wzd/mV1PpQ8zK5gw7mgMMP4IKxHyS92G81GEguSmzcQmA=</SignatureValue><KeyInfo><KeyValue><RSAKeyValue><Modulus>tNEknkb1kHiD1OOAWlLKkcH/UP5UGa6V6MYso++JB+vYMg2OXFROAF7G8BNFFPQx+4EgDJt9a+jUnt0HqjmChQ==</Modulus><Exponent>AQAB</Exponent></RSAKeyValue></KeyValue><X509Data><X509Certificate>MIIEgjCCA+ugAwIBAgIEAQAApzANBgkqhkiG9w0BAQUFADCBtTELMAkGA1UEBhMCQ0w=</X509Certificate></X509Data></KeyInfo></Signature>`;

export function dteElement(d: DteSpec): string {
  const amount = (tag: string, value: number | string | undefined | null) => (value === undefined || value === null ? '' : `<${tag}>${value}</${tag}>`);
  const total = d.total === undefined ? Number(d.net ?? 0) + Number(d.exempt ?? 0) + Number(d.tax ?? 0) : d.total;
  const id = `F${d.folio}T${d.type}`;
  const issuerNameTag = d.type === 39 || d.type === 41 ? 'RznSocEmisor' : 'RznSoc';
  const giroTag = d.type === 39 || d.type === 41 ? 'GiroEmisor' : 'GiroEmis';
  const references = (d.references ?? [])
    .map(
      (r, i) =>
        `<Referencia><NroLinRef>${i + 1}</NroLinRef><TpoDocRef>${r.type}</TpoDocRef><FolioRef>${r.folio}</FolioRef><FchRef>${r.date ?? '2026-06-01'}</FchRef>${r.code ? `<CodRef>${r.code}</CodRef>` : ''}${r.reason ? `<RazonRef>${esc(r.reason)}</RazonRef>` : ''}</Referencia>`,
    )
    .join('');
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
