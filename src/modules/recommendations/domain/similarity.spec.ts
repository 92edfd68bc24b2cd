import { BookedRecord, featuresOf, normaliseDescription, recommend } from './similarity';

const RENT = 'acc-rent';
const TRAVEL = 'acc-travel';
const SOFTWARE = 'acc-software';
const booked = (taxId: string | null, description: string, ledgerAccountId: string, partnerId: string | null = null, dims: string[] = []): BookedRecord => ({
  taxId,
  description,
  ledgerAccountId,
  partnerId,
  dimensionValueIds: dims,
});

describe('recommendations (D73, D73a)', () => {
  it('normalises dates, numbers, month names, accents, case and payment words away', () => {
    expect(normaliseDescription('PAGO ARRIENDO Oficina Providencia 03/2026 Nº 4431')).toEqual(['arriendo', 'oficina', 'providencia']);
    expect(normaliseDescription('Transferencia a Inmobiliaria Ñuñoa marzo 2026-03-05')).toEqual(['inmobiliaria', 'nunoa']);
  });

  it('reads a RUT printed in the description as the counterparty', () => {
    expect(featuresOf(null, 'TEF 76.086.428-5 Servicios').ruts).toEqual(['76086428-5']);
    expect(featuresOf('76.086.428-5', 'x').ruts).toEqual(['76086428-5']);
  });

  it('answers [] when no booked record shares a RUT or a word', () => {
    const history = [booked('11111111-1', 'UBER TRIP', TRAVEL)];
    expect(recommend(featuresOf('22222222-2', 'Arriendo oficina'), history)).toEqual([]);
    expect(recommend(featuresOf(null, '12/03/2026 4431'), history)).toEqual([]);
  });

  it('ranks a close description of the same counterparty above its more frequent other bookings', () => {
    const card = '97036000-K';
    const history = [
      ...Array.from({ length: 12 }, (_, i) => booked(card, `UBER *TRIP ${i + 10}/03 SANTIAGO`, TRAVEL)),
      booked(card, 'ADOBE *CREATIVE CLOUD 02/2026', SOFTWARE, null, ['dv-design']),
      booked(card, 'ADOBE CREATIVE CLOUD 01/2026', SOFTWARE, null, ['dv-design']),
    ];
    const result = recommend(featuresOf(card, 'Adobe *Creative Cloud 03/2026'), history);
    expect(result.map((r) => r.ledgerAccountId)).toEqual([SOFTWARE, TRAVEL]);
    expect(result[0]).toMatchObject({ dimensionValueIds: ['dv-design'], basedOnCount: 2, partnerId: null });
    expect(result[0].confidence).toBeGreaterThan(result[1].confidence);
    expect(result[1].basedOnCount).toBe(12);
    for (const r of result) {
      expect(r.confidence).toBeGreaterThan(0);
      expect(r.confidence).toBeLessThanOrEqual(1);
      expect(r.reason).toMatch(/booked this way, sharing the same counterparty RUT/);
    }
    expect(result[0].reason).toBe('2 similar records were booked this way, sharing the same counterparty RUT and description words "adobe", "creative", "cloud".');
  });

  it('matches by words alone when the counterparty is unknown', () => {
    const history = [booked(null, 'ARRIENDO OFICINA ENERO', RENT, 'p-landlord'), booked(null, 'ARRIENDO OFICINA FEBRERO', RENT, 'p-landlord'), booked(null, 'UBER', TRAVEL)];
    const [first, ...rest] = recommend(featuresOf(null, 'arriendo oficina marzo'), history);
    expect(first).toMatchObject({ ledgerAccountId: RENT, partnerId: 'p-landlord', basedOnCount: 2 });
    expect(rest).toEqual([]);
  });
});
