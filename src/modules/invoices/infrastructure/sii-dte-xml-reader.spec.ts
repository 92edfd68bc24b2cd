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
        foreignTotals: null,
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

  describe('export documents (110-112): foreign-currency totals with decimals, kept exact', () => {
    const FOREIGN = '55555555-5';
    const exportDoc = { type: 110, folio: '2001', issuerRut: ENTITY, receiverRut: FOREIGN };

    it('reads Totales in TpoMoneda as exact decimal strings and the peso figures of OtraMoneda as integers', () => {
      const [dte] = reader.read(
        singleDte({ ...exportDoc, exempt: '12500.7550', total: '12500.7550', otherCurrency: { name: 'PESO CL', rate: '950.2500', exempt: '11878842.47', total: '11878842.47' } }),
      );
      expect(dte).toMatchObject({
        dteType: 110,
        netAmount: 0,
        taxAmount: 0,
        exemptAmount: 11878842,
        totalAmount: 11878842,
        foreignTotals: { currency: 'USD', currencyName: 'DOLAR USA', exemptAmount: '12500.755', totalAmount: '12500.755', exchangeRate: '950.25' },
      });
      // Half away from zero to the peso; never a float on the way.
      const [half] = reader.read(singleDte({ ...exportDoc, exempt: '0.5', total: '0.5', otherCurrency: { name: 'PESO CL', total: '475.5' } }));
      expect(half).toMatchObject({ exemptAmount: 0, totalAmount: 476, foreignTotals: { totalAmount: '0.5', exchangeRate: null } });
    });

    it('keeps amounts exact at the schema bounds (14 integer and 4 decimal digits), beyond a float', () => {
      const [dte] = reader.read(singleDte({ ...exportDoc, type: 112, exempt: '99999999999999.9999', total: '99999999999999.9999', currency: 'EURO' }));
      expect(dte.foreignTotals).toEqual({ currency: 'EUR', currencyName: 'EURO', exemptAmount: '99999999999999.9999', totalAmount: '99999999999999.9999', exchangeRate: null });
      // No peso figure stated: none invented.
      expect(dte).toMatchObject({ exemptAmount: null, totalAmount: null });
    });

    it('reads an export in pesos (TpoMoneda PESO CL) and a currency without an ISO code', () => {
      expect(reader.read(singleDte({ ...exportDoc, type: 111, exempt: '150000', currency: 'PESO CL' }))[0]).toMatchObject({
        exemptAmount: 150000,
        totalAmount: 150000,
        foreignTotals: { currency: 'CLP', totalAmount: '150000' },
      });
      expect(reader.read(singleDte({ ...exportDoc, exempt: '10.5', currency: 'OTRAS MONEDAS' }))[0].foreignTotals).toMatchObject({ currency: null, currencyName: 'OTRAS MONEDAS' });
    });

    it('names the document and field of a bad foreign amount, a missing TpoMoneda, a bad TpoCambio', () => {
      const second = (override: object) => envioDte([{ ...exportDoc, exempt: '10' }, { ...exportDoc, folio: '2002', exempt: '10', ...override }]);
      const field = (override: object) => refusal(second(override)).params;
      expect(field({ total: '10.12345' })).toMatchObject({ document: 2, folio: '2002', field: 'Encabezado.Totales.MntTotal' });
      expect(field({ total: '1.5e3' })).toMatchObject({ document: 2, field: 'Encabezado.Totales.MntTotal' });
      expect(field({ total: '-10' })).toMatchObject({ document: 2, field: 'Encabezado.Totales.MntTotal' });
      expect(field({ exempt: '123456789012345', total: '10' })).toMatchObject({ document: 2, field: 'Encabezado.Totales.MntExe' });
      expect(field({ currency: null })).toMatchObject({ document: 2, field: 'Encabezado.Totales.TpoMoneda' });
      expect(field({ otherCurrency: { name: 'PESO CL', rate: '0', total: '10' } })).toMatchObject({ document: 2, field: 'Encabezado.OtraMoneda.TpoCambio' });
      expect(field({ otherCurrency: { name: 'PESO CL', total: '1,000' } })).toMatchObject({ document: 2, field: 'Encabezado.OtraMoneda.MntTotOtrMnda' });
    });

    it('round-trips any foreign amount of the schema exactly (property)', () => {
      fc.assert(
        fc.property(fc.bigInt({ min: 0n, max: 999999999999999999n }), fc.integer({ min: 0, max: 4 }), (units, scale) => {
          const digits = units.toString().padStart(scale + 1, '0');
          const text = scale === 0 ? digits : `${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
          if (digits.length - scale > 14) return;
          const [dte] = reader.read(singleDte({ ...exportDoc, exempt: text, total: text }));
          // Equal as decimals to what was written, in the plain form (no trailing zeros, no exponent).
          const plain = text.includes('.') ? text.replace(/0+$/, '').replace(/\.$/, '') : text;
          expect(dte.foreignTotals!.totalAmount).toBe(plain.replace(/^0+(?=\d)/, ''));
        }),
      );
    });
  });

  describe('liquidación-factura (43): totals that may be negative (ValorType)', () => {
    it('reads a negative MntTotal (commissions above the sale) as a negative integer', () => {
      const [dte] = reader.read(singleDte({ type: 43, folio: '501', issuerRut: ENTITY, receiverRut: PARTNER, net: 100000, tax: 19000, commissions: { net: 150000, tax: 28500 } }));
      expect(dte).toMatchObject({ dteType: 43, netAmount: 100000, taxAmount: 19000, totalAmount: -59500, foreignTotals: null });
    });

    it('refuses a negative total on any other type, and a non-integer one on a 43', () => {
      const doc = { type: 33, folio: '7', issuerRut: ENTITY, receiverRut: PARTNER, net: 100, tax: 19, total: -5 };
      expect(refusal(singleDte(doc)).params).toMatchObject({ field: 'Encabezado.Totales.MntTotal' });
      expect(refusal(singleDte({ ...doc, type: 61 })).params).toMatchObject({ field: 'Encabezado.Totales.MntTotal' });
      expect(refusal(singleDte({ ...doc, type: 43, total: '-5.5' })).params).toMatchObject({ field: 'Encabezado.Totales.MntTotal' });
      expect(refusal(singleDte({ ...doc, type: 43, total: '-9007199254740992' })).params).toMatchObject({ field: 'Encabezado.Totales.MntTotal' });
    });
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
