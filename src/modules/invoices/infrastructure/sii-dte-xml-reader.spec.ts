import fc from 'fast-check';
import { DomainError } from '../../../../libs/shared-kernel/src';
import { envioDte, singleDte } from '../../../../test/harness/dte-xml';
import { SiiDteXmlReader } from './sii-dte-xml-reader';

const reader = new SiiDteXmlReader();
const ENTITY = '76086428-5';
const PARTNER = '96874030-K';

function refusal(body: Buffer | string): DomainError {
  try {
    reader.read(Buffer.isBuffer(body) ? body : Buffer.from(body, 'utf8'));
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    return error as DomainError;
  }
  throw new Error('expected a refusal');
}

describe('SiiDteXmlReader', () => {
  it('reads an ISO-8859-1 DTE with accents and Ñ, folios as strings, amounts as integers and its references', () => {
    const body = singleDte({
      type: 61,
      folio: '0012',
      issuerRut: ENTITY,
      issuerName: 'Compañía Ñandú & Cía. Ltda.',
      receiverRut: PARTNER,
      receiverName: 'José Peña',
      net: 10000,
      tax: 1900,
      references: [{ type: '33', folio: '0000451', code: 1, reason: 'Anula factura' }],
    });
    expect(body.includes(Buffer.from('Ñ', 'latin1'))).toBe(true);
    expect(reader.read(body)).toEqual([
      {
        dteType: 61,
        folio: '0012',
        issuerTaxId: ENTITY,
        issuerName: 'Compañía Ñandú & Cía. Ltda.',
        receiverTaxId: PARTNER,
        receiverName: 'José Peña',
        issueDate: '2026-06-10',
        netAmount: 10000,
        exemptAmount: 0,
        taxAmount: 1900,
        totalAmount: 11900,
        references: [{ lineNumber: 1, documentType: '33', folio: '0000451', date: '2026-06-01', code: 1, reason: 'Anula factura' }],
      },
    ]);
  });

  it('reads UTF-8 and windows-1252 files as declared', () => {
    const spec = { type: 33, folio: '1', issuerRut: ENTITY, receiverRut: PARTNER, receiverName: 'Peña – “Comillas”', net: 100, tax: 19 };
    expect(reader.read(singleDte(spec, 'UTF-8'))[0].receiverName).toBe('Peña – “Comillas”');
    const cp1252 = Buffer.concat([Buffer.from('<?xml version="1.0" encoding="windows-1252"?>'), singleDte({ ...spec, receiverName: 'Peña' }, 'ISO-8859-1').subarray(44)]);
    expect(reader.read(cp1252)[0].receiverName).toBe('Peña');
  });

  it('reads a signed EnvioDTE and an EnvioBOLETA', () => {
    const docs = [
      { type: 33, folio: '100', issuerRut: ENTITY, receiverRut: PARTNER, net: 1000, tax: 190, signed: true },
      { type: 34, folio: '101', issuerRut: ENTITY, receiverRut: PARTNER, exempt: 5000, signed: true },
    ];
    expect(reader.read(envioDte(docs, { signed: true })).map((d) => [d.dteType, d.folio, d.totalAmount])).toEqual([
      [33, '100', 1190],
      [34, '101', 5000],
    ]);
    const boleta = reader.read(envioDte([{ type: 39, folio: '7', issuerRut: ENTITY, issuerName: 'Tienda Ñuñoa', receiverRut: '66666666-6', receiverName: '', net: 840, tax: 160 }], { boleta: true }));
    expect(boleta[0]).toMatchObject({ dteType: 39, issuerName: 'Tienda Ñuñoa', receiverName: null, totalAmount: 1000 });
  });

  it('refuses XML that is not well-formed with its line and column', () => {
    const error = refusal('<?xml version="1.0"?>\n<DTE>\n  <Documento>\n</DTE>');
    expect(error.code).toBe('VALIDATION_ERROR');
    expect(error.params).toMatchObject({ line: 4, column: expect.any(Number) });
  });

  it('refuses DOCTYPE and entity declarations before parsing', () => {
    const xxe = '<?xml version="1.0"?>\n<!DOCTYPE DTE [<!ENTITY x SYSTEM "file:///etc/passwd">]>\n<DTE>&x;</DTE>';
    expect(refusal(xxe).message).toMatch(/DOCTYPE/);
    const bomb = '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;">]><DTE>&lol2;</DTE>';
    expect(refusal(bomb).params).toMatchObject({ line: 1 });
  });

  it('names the document and field of a bad RUT, a missing Folio or MntTotal, a non-integer amount', () => {
    const ok = { type: 33, folio: '5', issuerRut: ENTITY, receiverRut: PARTNER, net: 100, tax: 19 };
    const second = (override: object) => envioDte([ok, { ...ok, folio: '6', ...override }]);
    expect(refusal(second({ receiverRut: '96874030-1' })).params).toMatchObject({ document: 2, folio: '6', field: 'Encabezado.Receptor.RUTRecep' });
    expect(refusal(second({ withoutFolio: true })).params).toMatchObject({ document: 2, field: 'Encabezado.IdDoc.Folio' });
    expect(refusal(second({ total: null })).params).toMatchObject({ document: 2, field: 'Encabezado.Totales.MntTotal' });
    expect(refusal(second({ net: '100.5' })).params).toMatchObject({ document: 2, field: 'Encabezado.Totales.MntNeto' });
    expect(refusal(second({ tax: '-19' })).params).toMatchObject({ document: 2, field: 'Encabezado.Totales.IVA' });
    expect(refusal(second({ type: 99 })).params).toMatchObject({ document: 2, field: 'Encabezado.IdDoc.TipoDTE' });
  });

  it('refuses another root, an empty body, an unknown encoding and bytes that are not UTF-8', () => {
    expect(refusal('<Factura/>').message).toMatch(/root element/);
    expect(refusal(Buffer.alloc(0)).code).toBe('VALIDATION_ERROR');
    expect(refusal('<?xml version="1.0" encoding="UTF-16"?><DTE/>').message).toMatch(/encoding/);
    expect(refusal(Buffer.from([0x3c, 0x44, 0x54, 0x45, 0x3e, 0xd1, 0x3c, 0x2f, 0x44, 0x54, 0x45, 0x3e])).message).toMatch(/UTF-8/);
  });

  it('never throws anything but a 400 DomainError on arbitrary input', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => {
        try {
          reader.read(Buffer.from(bytes));
        } catch (error) {
          expect(error).toBeInstanceOf(DomainError);
          expect((error as DomainError).code).toBe('VALIDATION_ERROR');
        }
      }),
    );
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (text) => {
        try {
          reader.read(Buffer.from(`<DTE><Documento>${text}</Documento></DTE>`, 'utf8'));
        } catch (error) {
          expect((error as DomainError).code).toBe('VALIDATION_ERROR');
        }
      }),
    );
  });
});
