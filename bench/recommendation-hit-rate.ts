import { BookedRecord, featuresOf, recommend } from '../src/modules/recommendations/domain/similarity';
import { CANDIDATE_LIMITS } from '../src/modules/recommendations/application/recommendations.service';
import { random, rutOf } from './lib/generate';

/**
 * `npm run bench -- recommendation-hit-rate [--history N] [--new N]`: a generated booking history
 * whose right answers are known (recurring suppliers, salaries, rent, card charges, customer
 * receipts, with noise in the descriptions), then new movements of the same kinds. For each new
 * movement: is the first recommendation the right counter account (and partner)? Compared with
 * the naive rule "the most frequent account of the same counterparty". Pure: the domain's
 * ranking over the candidates the SQL read model would hand it (booked, same flow, sharing a RUT
 * or a word), no database.
 */

interface Movement {
  taxId: string | null;
  description: string;
  flow: 'in' | 'out';
  answer: { ledgerAccountId: string; partnerId: string | null };
}

const MONTHS = ['ENE', 'FEB', 'MAR', 'ABR', 'MAY', 'JUN', 'JUL', 'AGO', 'SEP', 'OCT', 'NOV', 'DIC', 'enero', 'febrero', 'marzo'];

function generator(seed: number) {
  const rnd = random(seed);
  const pick = <T>(list: readonly T[]) => list[Math.floor(rnd() * list.length)];
  const rut = (n: number) => rutOf(10_000_000 + n * 7919);
  /** Distinct names without digits, as real ones are: "Comercial Andes Limari". */
  const PLACES = ['Andes', 'Pacifico', 'Austral', 'Norte', 'Maule', 'Biobio', 'Atacama', 'Limari'];
  const FAMILIES = ['Rojas', 'Soto', 'Vidal', 'Fuentes', 'Araya', 'Tapia', 'Castro', 'Silva', 'Reyes', 'Morales'];
  const uniqueName = (i: number) => `${PLACES[i % PLACES.length]} ${FAMILIES[Math.floor(i / PLACES.length) % FAMILIES.length]}`;
  const noise = (text: string): string => {
    // Banks cut and abbreviate: a word dropped, a word truncated.
    let words = text.split(' ');
    if (words.length > 2 && rnd() < 0.25) words.splice(Math.floor(rnd() * words.length), 1);
    if (rnd() < 0.2) words = words.map((w) => (w.length > 5 && rnd() < 0.5 ? w.slice(0, 4) : w));
    const parts = [words.join(' ')];
    if (rnd() < 0.6) parts.push(`${1 + Math.floor(rnd() * 28)}/${1 + Math.floor(rnd() * 12)}/2026`);
    if (rnd() < 0.4) parts.push(`TRX${Math.floor(rnd() * 1e6)}`);
    if (rnd() < 0.3) parts.push(pick(MONTHS));
    if (rnd() < 0.3) parts.unshift(pick(['PAGO', 'TRANSF', 'TEF', 'COMPRA', 'CARGO']));
    const joined = parts.join(' ');
    return rnd() < 0.5 ? joined.toLowerCase() : rnd() < 0.5 ? joined : joined.toUpperCase();
  };

  // Suppliers: some bill one service, some two (each booked to its own account).
  const suppliers = Array.from({ length: 30 }, (_, i) => {
    const name = `${pick(['Comercial', 'Servicios', 'Distribuidora', 'Inversiones'])} ${uniqueName(i)}`;
    const services = [{ words: `${name} ${pick(['insumos oficina', 'mantencion equipos', 'servicio aseo', 'courier envios', 'licencias software'])}`, account: `supplier-${i}-a` }];
    if (i % 3 === 0) services.push({ words: `${name} ${pick(['arriendo bodega', 'flete especial', 'asesoria legal', 'capacitacion'])}`, account: `supplier-${i}-b` });
    return { taxId: rut(i), partnerId: `partner-s${i}`, services };
  });
  const employees = Array.from({ length: 25 }, (_, i) => ({ taxId: rut(100 + i), name: `${pick(['Juan', 'Maria', 'Pedro', 'Camila', 'Diego', 'Valentina'])} ${pick(['Perez', 'Gonzalez', 'Munoz', 'Rojas', 'Soto'])}`, partnerId: `partner-e${i}` }));
  const landlord = { taxId: rut(200), partnerId: 'partner-landlord' };
  const cardIssuer = rut(300);
  const merchants = [
    ['UBER *TRIP', 'travel'],
    ['ADOBE *CREATIVE CLOUD', 'software'],
    ['AMAZON WEB SERVICES AWS', 'hosting'],
    ['STARBUCKS COFFEE', 'meals'],
    ['GOOGLE *WORKSPACE', 'software'],
    ['LATAM AIRLINES', 'travel'],
    ['COPEC COMBUSTIBLE', 'fuel'],
    ['LIDER SUPERMERCADO', 'office-supplies'],
  ] as const;
  const customers = Array.from({ length: 40 }, (_, i) => ({ taxId: rut(400 + i), name: `Cliente ${uniqueName(i + 3)} Ltda`, partnerId: `partner-c${i}` }));

  return (): Movement => {
    const kind = rnd();
    if (kind < 0.3) {
      const s = pick(suppliers);
      const service = s.services.length > 1 && rnd() < 0.35 ? s.services[1] : s.services[0];
      return { taxId: rnd() < 0.85 ? s.taxId : null, description: noise(service.words), flow: 'out', answer: { ledgerAccountId: service.account, partnerId: s.partnerId } };
    }
    if (kind < 0.5) {
      const e = pick(employees);
      const reimbursement = rnd() < 0.2;
      return {
        taxId: e.taxId,
        description: noise(reimbursement ? `reembolso gastos ${e.name}` : `remuneracion ${e.name}`),
        flow: 'out',
        answer: { ledgerAccountId: reimbursement ? 'expense-reimbursements' : 'salaries-payable', partnerId: e.partnerId },
      };
    }
    if (kind < 0.6) {
      const common = rnd() < 0.4;
      return { taxId: landlord.taxId, description: noise(common ? 'gastos comunes oficina' : 'arriendo oficina providencia'), flow: 'out', answer: { ledgerAccountId: common ? 'common-expenses' : 'rent', partnerId: landlord.partnerId } };
    }
    if (kind < 0.85) {
      const [merchant, account] = pick(merchants);
      return { taxId: cardIssuer, description: noise(merchant), flow: 'out', answer: { ledgerAccountId: account, partnerId: null } };
    }
    const c = pick(customers);
    return { taxId: rnd() < 0.9 ? c.taxId : null, description: noise(`deposito ${c.name}`), flow: 'in', answer: { ledgerAccountId: 'receivables', partnerId: c.partnerId } };
  };
}

function naive(target: Movement, history: Movement[]): { ledgerAccountId: string; partnerId: string | null } | null {
  if (!target.taxId) return null;
  const counts = new Map<string, { count: number; answer: Movement['answer'] }>();
  for (const h of history) {
    if (h.taxId !== target.taxId || h.flow !== target.flow) continue;
    const key = `${h.answer.ledgerAccountId}|${h.answer.partnerId}`;
    counts.set(key, { count: (counts.get(key)?.count ?? 0) + 1, answer: h.answer });
  }
  let best: { count: number; answer: Movement['answer'] } | null = null;
  for (const c of counts.values()) if (!best || c.count > best.count) best = c;
  return best?.answer ?? null;
}

export async function recommendationHitRate(args: string[]): Promise<void> {
  const option = (name: string, fallback: number) => (args.includes(name) ? Number(args[args.indexOf(name) + 1]) : fallback);
  const historySize = option('--history', 3000);
  const newSize = option('--new', 1000);
  const next = generator(2026);
  const history = Array.from({ length: historySize }, next);
  const fresh = Array.from({ length: newSize }, next);

  const booked = (m: Movement): BookedRecord => ({ taxId: m.taxId, description: m.description, ledgerAccountId: m.answer.ledgerAccountId, partnerId: m.answer.partnerId, dimensionValueIds: [] });
  let ours = 0;
  let oursAccount = 0;
  let theirs = 0;
  let empty = 0;
  let misses = 0;
  let selected = 0;
  const times: number[] = [];
  // The candidates as the service reads them (CANDIDATE_LIMITS): the newest of the same RUT, and the newest whose text holds a word or a printed RUT (ILIKE).
  const asSelected = (target: Movement, sameFlow: BookedRecord[]): BookedRecord[] => {
    const features = featuresOf(target.taxId, target.description);
    const ruts = new Set(features.ruts);
    const needles = [...features.words, ...features.ruts.flatMap((r) => { const body = r.split('-')[0]; return [body, body.replace(/\B(?=(\d{3})+(?!\d))/g, '.')]; })];
    const byRut: BookedRecord[] = [];
    const byWords: BookedRecord[] = [];
    for (let i = sameFlow.length - 1; i >= 0; i--) {
      const h = sameFlow[i];
      if (byRut.length < CANDIDATE_LIMITS.byRut && h.taxId && ruts.has(h.taxId)) byRut.push(h);
      const text = h.description.toLowerCase();
      if (byWords.length < CANDIDATE_LIMITS.byWords && needles.some((w) => text.includes(w))) byWords.push(h);
    }
    return [...new Set([...byRut, ...byWords])];
  };
  for (const target of fresh) {
    const sameFlow = history.filter((h) => h.flow === target.flow).map(booked);
    const t0 = performance.now();
    const [first] = recommend(featuresOf(target.taxId, target.description), sameFlow);
    times.push(performance.now() - t0);
    if (!first) empty++;
    if (first && first.ledgerAccountId === target.answer.ledgerAccountId) oursAccount++;
    if (first && first.ledgerAccountId === target.answer.ledgerAccountId && first.partnerId === target.answer.partnerId) ours++;
    else if (args.includes('--misses') && misses++ < 20) process.stdout.write(`miss: ${target.taxId} | ${target.description} | want ${target.answer.ledgerAccountId} ${target.answer.partnerId} | got ${first?.ledgerAccountId} ${first?.partnerId}\n`);
    const [chosen] = recommend(featuresOf(target.taxId, target.description), asSelected(target, sameFlow));
    if (chosen && chosen.ledgerAccountId === target.answer.ledgerAccountId && chosen.partnerId === target.answer.partnerId) selected++;
    const n = naive(target, history);
    if (n && n.ledgerAccountId === target.answer.ledgerAccountId && n.partnerId === target.answer.partnerId) theirs++;
  }
  times.sort((a, b) => a - b);
  const pct = (n: number) => `${((100 * n) / fresh.length).toFixed(1)} %`;
  process.stdout.write(`\nHistory ${historySize} booked movements, ${newSize} new ones (seed 2026).\n\n`);
  process.stdout.write('| Rule | first suggestion right (account and partner) |\n|---|---|\n');
  process.stdout.write(`| recommendations (D73) | ${pct(ours)} (account alone ${pct(oursAccount)}; no suggestion ${pct(empty)}) |\n`);
  process.stdout.write(`| recommendations over the candidates the service reads (newest ${CANDIDATE_LIMITS.byRut} of the RUT, newest ${CANDIDATE_LIMITS.byWords} sharing a word) | ${pct(selected)} |\n`);
  process.stdout.write(`| naive: most frequent account of the same counterparty | ${pct(theirs)} |\n`);
  process.stdout.write(`\nRanking time per movement (domain only, ${history.length} history rows in memory): median ${times[Math.floor(times.length / 2)].toFixed(2)} ms.\n`);
}
