import fc from 'fast-check';
import { DomainError } from '../../../../libs/shared-kernel/src';
import { envioDte, singleDte } from '../../../../test/harness/dte-xml';
import { ImportParsePool } from '../../../platform/imports/parse-pool';
import { OffThreadDteXmlReader } from './off-thread-dte-xml-reader';
import { SiiDteXmlReader } from './sii-dte-xml-reader';

const reader = new SiiDteXmlReader();
const ENTITY = '76086428-5';
const PARTNER = '96874030-K';

async function refusal(body: Buffer | string): Promise<DomainError> {
  try {
    await reader.read(Buffer.isBuffer(body) ? body : Buffer.from(body, 'utf8'));
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    return error as DomainError;
  }
  throw new Error('expected a refusal');
}

describe('SiiDteXmlReader', () => {
  it('reads an ISO-8859-1 DTE with accents and Ñ, folios as strings without leading zeros (D63a), amounts as integers and its references', async () => {
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
    expect((await reader.read(body))).toEqual([
      {
        dteType: 61,
        folio: '12',
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

  it('reads UTF-8 and windows-1252 files as declared', async () => {
    const spec = { type: 33, folio: '1', issuerRut: ENTITY, receiverRut: PARTNER, receiverName: 'Peña – “Comillas”', net: 100, tax: 19 };
    expect((await reader.read(singleDte(spec, 'UTF-8')))[0].receiverName).toBe('Peña – “Comillas”');
    const cp1252 = Buffer.concat([Buffer.from('<?xml version="1.0" encoding="windows-1252"?>'), singleDte({ ...spec, receiverName: 'Peña' }, 'ISO-8859-1').subarray(44)]);
    expect((await reader.read(cp1252))[0].receiverName).toBe('Peña');
  });

  it('reads a signed EnvioDTE and an EnvioBOLETA', async () => {
    const docs = [
      { type: 33, folio: '100', issuerRut: ENTITY, receiverRut: PARTNER, net: 1000, tax: 190, signed: true },
      { type: 34, folio: '101', issuerRut: ENTITY, receiverRut: PARTNER, exempt: 5000, signed: true },
    ];
    expect((await reader.read(envioDte(docs, { signed: true }))).map((d) => [d.dteType, d.folio, d.totalAmount])).toEqual([
      [33, '100', 1190],
      [34, '101', 5000],
    ]);
    const boleta = (await reader.read(envioDte([{ type: 39, folio: '7', issuerRut: ENTITY, issuerName: 'Tienda Ñuñoa', receiverRut: '66666666-6', receiverName: '', net: 840, tax: 160 }], { boleta: true })));
    expect(boleta[0]).toMatchObject({ dteType: 39, issuerName: 'Tienda Ñuñoa', receiverName: null, totalAmount: 1000 });
  });

  it('refuses XML that is not well-formed with its line and column', async () => {
    const error = (await refusal('<?xml version="1.0"?>\n<DTE>\n  <Documento>\n</DTE>'));
    expect(error.code).toBe('VALIDATION_ERROR');
    expect(error.params).toMatchObject({ line: 4, column: expect.any(Number) });
  });

  it('refuses DOCTYPE and entity declarations before parsing', async () => {
    const xxe = '<?xml version="1.0"?>\n<!DOCTYPE DTE [<!ENTITY x SYSTEM "file:///etc/passwd">]>\n<DTE>&x;</DTE>';
    expect((await refusal(xxe)).message).toMatch(/DOCTYPE/);
    const bomb = '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;">]><DTE>&lol2;</DTE>';
    expect((await refusal(bomb)).params).toMatchObject({ line: 1 });
  });

  it('names the document and field of a bad RUT, a missing Folio or MntTotal, a non-integer amount', async () => {
    const ok = { type: 33, folio: '5', issuerRut: ENTITY, receiverRut: PARTNER, net: 100, tax: 19 };
    const second = (override: object) => envioDte([ok, { ...ok, folio: '6', ...override }]);
    expect((await refusal(second({ receiverRut: '96874030-1' }))).params).toMatchObject({ document: 2, folio: '6', field: 'Encabezado.Receptor.RUTRecep' });
    expect((await refusal(second({ withoutFolio: true }))).params).toMatchObject({ document: 2, field: 'Encabezado.IdDoc.Folio' });
    expect((await refusal(second({ total: null }))).params).toMatchObject({ document: 2, field: 'Encabezado.Totales.MntTotal' });
    expect((await refusal(second({ net: '100.5' }))).params).toMatchObject({ document: 2, field: 'Encabezado.Totales.MntNeto' });
    expect((await refusal(second({ tax: '-19' }))).params).toMatchObject({ document: 2, field: 'Encabezado.Totales.IVA' });
    expect((await refusal(second({ type: 99 }))).params).toMatchObject({ document: 2, field: 'Encabezado.IdDoc.TipoDTE' });
  });

  describe('export documents (110-112): foreign-currency totals with decimals, kept exact', () => {
    const FOREIGN = '55555555-5';
    const exportDoc = { type: 110, folio: '2001', issuerRut: ENTITY, receiverRut: FOREIGN };

    it('reads Totales in TpoMoneda as exact decimal strings and the peso figures of OtraMoneda as integers', async () => {
      const [dte] = (await reader.read(
        singleDte({ ...exportDoc, exempt: '12500.7550', total: '12500.7550', otherCurrency: { name: 'PESO CL', rate: '950.2500', exempt: '11878842.47', total: '11878842.47' } }),
      ));
      expect(dte).toMatchObject({
        dteType: 110,
        netAmount: 0,
        taxAmount: 0,
        exemptAmount: 11878842,
        totalAmount: 11878842,
        foreignTotals: { currency: 'USD', currencyName: 'DOLAR USA', exemptAmount: '12500.755', totalAmount: '12500.755', exchangeRate: '950.25' },
      });
      // Half away from zero to the peso; never a float on the way.
      const [half] = (await reader.read(singleDte({ ...exportDoc, exempt: '0.5', total: '0.5', otherCurrency: { name: 'PESO CL', total: '475.5' } })));
      expect(half).toMatchObject({ exemptAmount: 0, totalAmount: 476, foreignTotals: { totalAmount: '0.5', exchangeRate: null } });
    });

    it('keeps amounts exact at the schema bounds (14 integer and 4 decimal digits), beyond a float', async () => {
      const [dte] = (await reader.read(singleDte({ ...exportDoc, type: 112, exempt: '99999999999999.9999', total: '99999999999999.9999', currency: 'EURO' })));
      expect(dte.foreignTotals).toEqual({ currency: 'EUR', currencyName: 'EURO', exemptAmount: '99999999999999.9999', totalAmount: '99999999999999.9999', exchangeRate: null });
      // No peso figure stated: none invented.
      expect(dte).toMatchObject({ exemptAmount: null, totalAmount: null });
    });

    it('reads an export in pesos (TpoMoneda PESO CL) and a currency without an ISO code', async () => {
      expect((await reader.read(singleDte({ ...exportDoc, type: 111, exempt: '150000', currency: 'PESO CL' })))[0]).toMatchObject({
        exemptAmount: 150000,
        totalAmount: 150000,
        foreignTotals: { currency: 'CLP', totalAmount: '150000' },
      });
      expect((await reader.read(singleDte({ ...exportDoc, exempt: '10.5', currency: 'OTRAS MONEDAS' })))[0].foreignTotals).toMatchObject({ currency: null, currencyName: 'OTRAS MONEDAS' });
    });

    it('names the document and field of a bad foreign amount, a missing TpoMoneda, a bad TpoCambio', async () => {
      const second = (override: object) => envioDte([{ ...exportDoc, exempt: '10' }, { ...exportDoc, folio: '2002', exempt: '10', ...override }]);
      const field = async (override: object) => (await refusal(second(override))).params;
      expect(await field({ total: '10.12345' })).toMatchObject({ document: 2, folio: '2002', field: 'Encabezado.Totales.MntTotal' });
      expect(await field({ total: '1.5e3' })).toMatchObject({ document: 2, field: 'Encabezado.Totales.MntTotal' });
      expect(await field({ total: '-10' })).toMatchObject({ document: 2, field: 'Encabezado.Totales.MntTotal' });
      expect(await field({ exempt: '123456789012345', total: '10' })).toMatchObject({ document: 2, field: 'Encabezado.Totales.MntExe' });
      expect(await field({ currency: null })).toMatchObject({ document: 2, field: 'Encabezado.Totales.TpoMoneda' });
      expect(await field({ otherCurrency: { name: 'PESO CL', rate: '0', total: '10' } })).toMatchObject({ document: 2, field: 'Encabezado.OtraMoneda.TpoCambio' });
      expect(await field({ otherCurrency: { name: 'PESO CL', total: '1,000' } })).toMatchObject({ document: 2, field: 'Encabezado.OtraMoneda.MntTotOtrMnda' });
    });

    it('round-trips any foreign amount of the schema exactly (property)', async () => {
      await fc.assert(
        fc.asyncProperty(fc.bigInt({ min: 0n, max: 999999999999999999n }), fc.integer({ min: 0, max: 4 }), async (units, scale) => {
          const digits = units.toString().padStart(scale + 1, '0');
          const text = scale === 0 ? digits : `${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
          if (digits.length - scale > 14) return;
          const [dte] = (await reader.read(singleDte({ ...exportDoc, exempt: text, total: text })));
          // Equal as decimals to what was written, in the plain form (no trailing zeros, no exponent).
          const plain = text.includes('.') ? text.replace(/0+$/, '').replace(/\.$/, '') : text;
          expect(dte.foreignTotals!.totalAmount).toBe(plain.replace(/^0+(?=\d)/, ''));
        }),
      );
    });
  });

  describe('liquidación-factura (43): totals that may be negative (ValorType)', () => {
    it('reads a negative MntTotal (commissions above the sale) as a negative integer', async () => {
      const [dte] = (await reader.read(singleDte({ type: 43, folio: '501', issuerRut: ENTITY, receiverRut: PARTNER, net: 100000, tax: 19000, commissions: { net: 150000, tax: 28500 } })));
      expect(dte).toMatchObject({ dteType: 43, netAmount: 100000, taxAmount: 19000, totalAmount: -59500, foreignTotals: null });
    });

    it('refuses a negative total on any other type, and a non-integer one on a 43', async () => {
      const doc = { type: 33, folio: '7', issuerRut: ENTITY, receiverRut: PARTNER, net: 100, tax: 19, total: -5 };
      expect((await refusal(singleDte(doc))).params).toMatchObject({ field: 'Encabezado.Totales.MntTotal' });
      expect((await refusal(singleDte({ ...doc, type: 61 }))).params).toMatchObject({ field: 'Encabezado.Totales.MntTotal' });
      expect((await refusal(singleDte({ ...doc, type: 43, total: '-5.5' }))).params).toMatchObject({ field: 'Encabezado.Totales.MntTotal' });
      expect((await refusal(singleDte({ ...doc, type: 43, total: '-9007199254740992' }))).params).toMatchObject({ field: 'Encabezado.Totales.MntTotal' });
    });
  });

  it('refuses another root, an empty body, an unknown encoding and bytes that are not UTF-8', async () => {
    expect((await refusal('<Factura/>')).message).toMatch(/root element/);
    expect((await refusal(Buffer.alloc(0))).code).toBe('VALIDATION_ERROR');
    expect((await refusal('<?xml version="1.0" encoding="UTF-16"?><DTE/>')).message).toMatch(/encoding/);
    expect((await refusal(Buffer.from([0x3c, 0x44, 0x54, 0x45, 0x3e, 0xd1, 0x3c, 0x2f, 0x44, 0x54, 0x45, 0x3e]))).message).toMatch(/UTF-8/);
  });

  it('never throws anything but a 400 DomainError on arbitrary input', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 300 }), async (bytes) => {
        try {
          (await reader.read(Buffer.from(bytes)));
        } catch (error) {
          expect(error).toBeInstanceOf(DomainError);
          expect((error as DomainError).code).toBe('VALIDATION_ERROR');
        }
      }),
    );
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 200 }), async (text) => {
        try {
          (await reader.read(Buffer.from(`<DTE><Documento>${text}</Documento></DTE>`, 'utf8')));
        } catch (error) {
          expect((error as DomainError).code).toBe('VALIDATION_ERROR');
        }
      }),
    );
  });

  describe('issue 33: D63a folios', () => {
    const doc = (folio: string) => singleDte({ type: 33, folio, issuerRut: ENTITY, receiverRut: PARTNER, net: 100, tax: 19 });
    it('ignores leading zeros: 09270702 is folio 9270702', async () => {
      expect((await reader.read(doc('09270702')))[0].folio).toBe('9270702');
      expect((await reader.read(doc('9270702')))[0].folio).toBe('9270702');
    });
    it('refuses folio 0 (however many zeros) and a non-number, naming the field', async () => {
      for (const folio of ['0', '0000', '12a', '-5', '1.5', ' ']) {
        const error = await refusal(doc(folio));
        expect(error.code).toBe('VALIDATION_ERROR');
        expect(error.params).toMatchObject({ document: 1, field: 'Encabezado.IdDoc.Folio' });
      }
    });
  });

  describe('issue 33: the XML declaration read whole', () => {
    const body = (declaration: string, name = 'Peña Ñuñoa') =>
      Buffer.concat([Buffer.from(declaration, 'latin1'), singleDte({ type: 33, folio: '5', issuerRut: ENTITY, receiverRut: PARTNER, receiverName: name, net: 100, tax: 19 }, 'ISO-8859-1').subarray(singleDte({ type: 33, folio: '5', issuerRut: ENTITY, receiverRut: PARTNER, net: 100, tax: 19 }, 'ISO-8859-1').indexOf('?>') + 2)]);
    it('reads ISO-8859-1 named after 300 spaces of padding (past the first 200 bytes)', async () => {
      const padded = body(`<?xml version="1.0"${' '.repeat(300)}encoding="ISO-8859-1"?>`);
      expect(padded.indexOf('ISO-8859-1')).toBeGreaterThan(200);
      expect((await reader.read(padded))[0].receiverName).toBe('Peña Ñuñoa');
    });
    it('refuses UTF-16 (declared, or in its bytes), an encoding name of 300 letters, and a malformed declaration: 400', async () => {
      expect((await refusal(body('<?xml version="1.0" encoding="UTF-16"?>'))).params).toMatchObject({ path: 'body' });
      const utf16 = Buffer.from('\ufeff<?xml version="1.0" encoding="UTF-16"?><DTE/>', 'utf16le');
      expect((await refusal(utf16)).message).toMatch(/UTF-16/);
      expect((await refusal(Buffer.from('<?xml version="1.0"?><DTE/>', 'utf16le'))).message).toMatch(/UTF-16/);
      expect((await refusal(body(`<?xml version="1.0" encoding="${'a'.repeat(300)}"?>`))).message).toMatch(/encoding/);
      expect((await refusal(body('<?xml version="1.0" encoding="ISO 8859-1"?>'))).message).toMatch(/encoding/);
      expect((await refusal(body('<?xml version="1.0" encoding=ISO-8859-1?>'))).message).toMatch(/declaration/);
      expect((await refusal(Buffer.from(`<?xml version="1.0" encoding="ISO-8859-1"${' '.repeat(5000)}?><DTE/>`))).message).toMatch(/declaration/);
    });
  });

  describe('issue 33 (D2b): the SII schema\'s bounds, streamed', () => {
    const ok = { type: 33, folio: '5', issuerRut: ENTITY, receiverRut: PARTNER, net: 100, tax: 19 };
    it('refuses an unclosed flood of elements at the depth bound, early, naming the document', async () => {
      const flood = Buffer.from(`<?xml version="1.0"?><DTE><Documento>${'<a>'.repeat(1_600_000)}`);
      const error = await refusal(flood);
      // It stops at the 23rd <a>: DTE, Documento and 22 more make 24 levels.
      expect(error.params).toMatchObject({ document: 1, limit: 24, line: 1, column: expect.any(Number) });
      expect(error.params!.column).toBeLessThan(120);
      expect(error.message).toMatch(/deeper than 24/);
    });
    it('refuses more elements than the bound, kept or not', async () => {
      const many = Buffer.from(`<?xml version="1.0"?><DTE><Documento>${'<a/>'.repeat(500_001)}</Documento></DTE>`);
      expect((await refusal(many)).params).toMatchObject({ path: 'body', limit: 500_000 });
    });
    it('refuses a 41st Referencia of a document, naming it', async () => {
      const refs = Array.from({ length: 60_000 }, (_, i) => ({ type: '33', folio: String(i + 1) }));
      const error = await refusal(envioDte([ok, { ...ok, folio: '6', references: refs }]));
      expect(error.params).toMatchObject({ document: 2, folio: '6', field: 'Referencia', limit: 40 });
      const forty = Array.from({ length: 40 }, (_, i) => ({ type: '33', folio: String(i + 1) }));
      expect((await reader.read(singleDte({ ...ok, references: forty })))[0].references).toHaveLength(40);
    });
    it('refuses a RznSoc longer than 100 characters (a 4.9 MB one without keeping it), a RazonRef over 90', async () => {
      const huge = await refusal(envioDte([ok, { ...ok, folio: '6', issuerName: 'x'.repeat(4_900_000) }]));
      expect(huge.params).toMatchObject({ document: 2, folio: '6', field: 'Encabezado.Emisor.RznSoc', limit: 100 });
      expect((await refusal(singleDte({ ...ok, issuerName: 'x'.repeat(101) }))).params).toMatchObject({ field: 'Encabezado.Emisor.RznSoc' });
      expect((await reader.read(singleDte({ ...ok, issuerName: 'x'.repeat(100) })))[0].issuerName).toHaveLength(100);
      expect((await refusal(singleDte({ ...ok, receiverName: 'y'.repeat(101) }))).params).toMatchObject({ field: 'Encabezado.Receptor.RznSocRecep' });
      expect((await refusal(singleDte({ ...ok, references: [{ type: '33', folio: '1', reason: 'r'.repeat(91) }] }))).params).toMatchObject({ field: 'Referencia[0].RazonRef' });
    });
    it('is read in an import-parsing worker by the service: the main thread\'s loop turns while a large file is read', async () => {
      const pool = new ImportParsePool({ get: (key: string) => (key === 'heavyReadsTotal' ? 1 : 10) } as never);
      const file = envioDte(Array.from({ length: 2000 }, (_, i) => ({ ...ok, folio: String(i + 1) })), { signed: true });
      let ticks = 0;
      const timer = setInterval(() => ticks++, 0);
      let read: unknown[];
      try {
        read = await new OffThreadDteXmlReader(pool).read(file);
      } finally {
        clearInterval(timer);
        await pool.onApplicationShutdown();
      }
      expect(ticks).toBeGreaterThan(0);
      expect(read).toHaveLength(2000);
      expect(read).toEqual(await reader.read(file));
    }, 30_000);
  });
});
