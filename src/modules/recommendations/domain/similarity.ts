import { canonicalRut } from '../../../../libs/shared-kernel/src';

/**
 * D73, D73a: booking recommendations from how similar records were booked before.
 *
 * A record is described by the RUTs it names (its counterparty's tax id, and any RUT printed in
 * its description) and the words of its description after normalising: lower case, accents
 * removed, dates, month names, numbers and punctuation dropped, and the words every bank line
 * carries ("pago", "transferencia", ...) ignored. A booked record is similar when it shares a RUT
 * or a word; nothing else counts (no fallback: no similar record, no recommendation).
 */
export interface RecordFeatures {
  ruts: string[];
  words: string[];
}

export interface BookedRecord {
  taxId: string | null;
  description: string;
  ledgerAccountId: string;
  partnerId: string | null;
  /** Sorted. */
  dimensionValueIds: string[];
}

export interface Recommendation {
  ledgerAccountId: string;
  partnerId: string | null;
  dimensionValueIds: string[];
  /** Greater than 0, at most 1 (D73a). */
  confidence: number;
  /** Similar booked records booked exactly this way. */
  basedOnCount: number;
  reason: string;
}

const MONTHS = [
  'enero', 'febrero', 'marzo', 'abril', 'mayo', 'junio', 'julio', 'agosto', 'septiembre', 'setiembre', 'octubre', 'noviembre', 'diciembre',
  'ene', 'feb', 'mar', 'abr', 'may', 'jun', 'jul', 'ago', 'sep', 'sept', 'oct', 'nov', 'dic',
  'january', 'february', 'march', 'april', 'june', 'july', 'august', 'september', 'october', 'november', 'december',
  'jan', 'apr', 'aug', 'dec',
];

/** Words that say how money moved, not what for, and short function words (Spanish and English). */
const NOISE = new Set([
  ...MONTHS,
  'pago', 'pagos', 'transferencia', 'transf', 'trf', 'tef', 'tranf', 'compra', 'compras', 'cargo', 'abono', 'deposito', 'giro', 'nro', 'num', 'n',
  'de', 'del', 'la', 'el', 'los', 'las', 'y', 'en', 'a', 'al', 'por', 'para', 'con', 'sin', 'un', 'una', 'mes', 'ref', 'fecha',
  'the', 'of', 'to', 'for', 'and', 'in', 'on', 'at', 'payment', 'transfer', 'invoice', 'factura', 'fact', 'boleta', 'folio', 'rut',
]);

/** A RUT as printed: `76.086.428-5`, `76086428-5`, `12345678-k`. */
const RUT_IN_TEXT = /\b(\d{1,2}\.?\d{3}\.?\d{3}-[\dkK])\b/g;
const DATES = /\b\d{1,4}[/.-]\d{1,2}(?:[/.-]\d{1,4})?\b/g;

const ASCII = /^[\x20-\x7e]*$/;
const cache = new Map<string, string[]>();
const CACHE_SIZE = 50_000;

export function normaliseDescription(description: string): string[] {
  const cached = cache.get(description);
  if (cached) return cached;
  const folded = ASCII.test(description) ? description : description.normalize('NFD').replace(/\p{M}/gu, '');
  const text = folded.toLowerCase().replace(RUT_IN_TEXT, ' ').replace(DATES, ' ').replace(/[^a-z0-9]+/g, ' ');
  const words: string[] = [];
  for (const w of text.split(' ')) {
    // Words with a digit are numbers, references and codes (TRX4431, 3ra): they say nothing of the purpose.
    if (w.length >= 2 && !NOISE.has(w) && !/\d/.test(w) && !words.includes(w)) words.push(w);
  }
  if (cache.size >= CACHE_SIZE) cache.clear();
  cache.set(description, words);
  return words;
}

export function featuresOf(taxId: string | null, description: string): RecordFeatures {
  const ruts = new Set<string>();
  const own = taxId ? canonicalRut(taxId) : null;
  if (own) ruts.add(own);
  for (const match of description.matchAll(RUT_IN_TEXT)) {
    const rut = canonicalRut(match[1]);
    if (rut) ruts.add(rut);
  }
  return { ruts: [...ruts], words: normaliseDescription(description) };
}

/** Weighted Jaccard of two word sets, rarer words weighing more (idf over the candidates). */
function wordSimilarity(a: string[], b: Set<string>, weight: (w: string) => number): number {
  let shared = 0;
  let union = 0;
  for (const w of a) {
    union += weight(w);
    if (b.has(w)) shared += weight(w);
  }
  for (const w of b) if (!a.includes(w)) union += weight(w);
  return union === 0 ? 0 : shared / union;
}

interface Group {
  key: string;
  record: BookedRecord;
  similarities: number[];
  sharedRut: number;
  sharedWords: Set<string>;
}

/** Top similarities considered per way of booking; more records add support, not strength. */
const TOP = 3;

/**
 * Ranks the ways similar records were booked, best first. Each similar record scores
 * 1 (shares a RUT) + 2 × word similarity (0..1); a way of booking scores the mean of its best
 * three records plus a little for how many there are (0.1 × ln(1 + count)). The strongest and
 * most frequent way wins; a frequent way of the same counterparty for other purposes does not
 * beat a close match of the description. `confidence` is the way's score against the best score
 * a record can have (3), times its share of all similar records' scores.
 */
export function recommend(target: RecordFeatures, history: BookedRecord[], limit = 5): Recommendation[] {
  const targetRuts = new Set(target.ruts);
  const candidates = history.map((record) => ({ record, features: featuresOf(record.taxId, record.description) }));
  const documentFrequency = new Map<string, number>();
  for (const c of candidates) for (const w of c.features.words) documentFrequency.set(w, (documentFrequency.get(w) ?? 0) + 1);
  const n = candidates.length;
  const weight = (w: string) => Math.log(1 + (n + 1) / (1 + (documentFrequency.get(w) ?? 0)));

  const groups = new Map<string, Group>();
  let total = 0;
  for (const { record, features } of candidates) {
    const sharesRut = features.ruts.some((r) => targetRuts.has(r));
    const words = new Set(features.words);
    const sharedWords = target.words.filter((w) => words.has(w));
    if (!sharesRut && sharedWords.length === 0) continue;
    const score = (sharesRut ? 1 : 0) + 2 * wordSimilarity(target.words, words, weight);
    const key = `${record.ledgerAccountId}|${record.partnerId ?? ''}|${record.dimensionValueIds.join(',')}`;
    let group = groups.get(key);
    if (!group) {
      group = { key, record, similarities: [], sharedRut: 0, sharedWords: new Set() };
      groups.set(key, group);
    }
    group.similarities.push(score);
    if (sharesRut) group.sharedRut++;
    for (const w of sharedWords) group.sharedWords.add(w);
    total += score;
  }

  const ranked = [...groups.values()].map((group) => {
    const best = [...group.similarities].sort((a, b) => b - a).slice(0, TOP);
    const strength = best.reduce((s, x) => s + x, 0) / best.length;
    const mass = group.similarities.reduce((s, x) => s + x, 0);
    return { group, score: strength + 0.1 * Math.log(1 + group.similarities.length), strength, share: total === 0 ? 0 : mass / total };
  });
  ranked.sort((a, b) => b.score - a.score || b.group.similarities.length - a.group.similarities.length || a.group.key.localeCompare(b.group.key));

  return ranked.slice(0, limit).map(({ group, strength, share }) => ({
    ledgerAccountId: group.record.ledgerAccountId,
    partnerId: group.record.partnerId,
    dimensionValueIds: group.record.dimensionValueIds,
    confidence: Math.max(0.01, Math.min(1, Math.round(((strength / 3) * 0.5 + share * 0.5) * 100) / 100)),
    basedOnCount: group.similarities.length,
    reason: reasonOf(group),
  }));
}

function reasonOf(group: Group): string {
  const count = group.similarities.length;
  const records = count === 1 ? '1 similar record was' : `${count} similar records were`;
  const parts: string[] = [];
  if (group.sharedRut > 0) parts.push(group.sharedRut === count ? 'the same counterparty RUT' : `the same counterparty RUT (${group.sharedRut})`);
  const words = [...group.sharedWords].slice(0, 4);
  if (words.length > 0) parts.push(`description words ${words.map((w) => `"${w}"`).join(', ')}`);
  return `${records} booked this way, sharing ${parts.join(' and ')}.`;
}
