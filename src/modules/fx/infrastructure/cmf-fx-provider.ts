import { FxRateProvider } from '../application/fx-ports';
import { FxRate, fxProviderError, FxSource, parseChileanDecimal } from '../domain/fx-rate';
import { isIsoDate } from '../../../../libs/shared-kernel/src';

export interface CmfSettings {
  /** Root of the recursos API, e.g. https://api.cmfchile.cl/api-sbifv3/recursos_api */
  baseUrl: string;
  apiKey: string;
  /** Bound on each request to the CMF. */
  timeoutMs: number;
}

/** The CMF series this adapter reads: path segment, JSON root key, ISO currency. */
const SERIES = [
  { path: 'dolar', key: 'Dolares', currency: 'USD' },
  { path: 'euro', key: 'Euros', currency: 'EUR' },
  { path: 'uf', key: 'UFs', currency: 'CLF' },
] as const;

/** A year of three series is a few tens of kilobytes; anything far larger is not a CMF answer. */
const MAX_RESPONSE_BYTES = 2 * 1024 * 1024;

/** `/{yyyy}/{mm}/dias_i/{dd}/{yyyy}/{mm}/dias_f/{dd}`: the CMF's `periodo` form of a range. */
function periodPath(from: string, to: string): string {
  const [y1, m1, d1] = from.split('-');
  const [y2, m2, d2] = to.split('-');
  return `periodo/${y1}/${m1}/dias_i/${d1}/${y2}/${m2}/dias_f/${d2}`;
}

async function readBounded(response: Response): Promise<string> {
  const declared = Number(response.headers.get('content-length') ?? '0');
  if (declared > MAX_RESPONSE_BYTES) throw new Error(`answer of ${declared} bytes is too large`);
  const reader = response.body?.getReader();
  if (!reader) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_RESPONSE_BYTES) {
      await reader.cancel();
      throw new Error('answer is too large');
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * D80: the Chilean rates of the CMF (Comisión para el Mercado Financiero) API, api-sbifv3:
 * dólar observado (USD), euro (EUR) and UF (CLF), all in CLP. `GET {base}/{serie}/periodo/...
 * ?apikey=&formato=json` answers `{ "Dolares": [{ "Valor": "38.500,12", "Fecha": "2026-01-23" }] }`:
 * values with a comma before the decimals and dots between thousands, read exactly as text.
 * Days without a rate (weekends and holidays for the dollar and euro) are simply absent; a
 * range with none at all is answered 404, which means "no rates", not a failure.
 */
export class CmfFxProvider extends FxRateProvider {
  readonly source: FxSource = 'cmf';
  readonly functionalCurrency = 'CLP';

  constructor(private readonly settings: CmfSettings) {
    super();
  }

  async fetchRates(from: string, to: string): Promise<FxRate[]> {
    const rates: FxRate[] = [];
    for (const series of SERIES) rates.push(...(await this.fetchSeries(series, from, to)));
    return rates;
  }

  private async fetchSeries(series: (typeof SERIES)[number], from: string, to: string): Promise<FxRate[]> {
    const url = new URL(`${this.settings.baseUrl.replace(/\/+$/, '')}/${series.path}/${periodPath(from, to)}`);
    url.searchParams.set('apikey', this.settings.apiKey);
    url.searchParams.set('formato', 'json');
    const fail = (reason: string) => fxProviderError({ source: this.source, reason: `${series.path}: ${reason}` });

    let status: number;
    let text: string;
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(this.settings.timeoutMs), headers: { accept: 'application/json' } });
      status = response.status;
      text = await readBounded(response);
    } catch (error) {
      const name = (error as Error).name;
      throw fail(name === 'TimeoutError' || name === 'AbortError' ? `no answer within ${this.settings.timeoutMs} ms` : `unreachable (${(error as Error).message})`);
    }
    // No rate in the range (a weekend, or a range before the series began).
    if (status === 404) return [];
    if (status < 200 || status > 299) throw fail(`answered HTTP ${status}${this.cmfMessage(text)}`);

    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw fail('answered something that is not JSON');
    }
    const list = (body as Record<string, unknown> | null)?.[series.key];
    if (!Array.isArray(list)) throw fail(`answer has no ${series.key} array${this.cmfMessage(text)}`);

    const byDate = new Map<string, FxRate>();
    list.forEach((item: unknown, index) => {
      const { Valor, Fecha } = (item ?? {}) as { Valor?: unknown; Fecha?: unknown };
      if (typeof Fecha !== 'string' || !isIsoDate(Fecha)) throw fail(`${series.key}[${index}].Fecha is not an ISO date`);
      const rate = typeof Valor === 'string' ? parseChileanDecimal(Valor) : null;
      if (rate === null || !/^[0-9]{1,12}(\.[0-9]{1,12})?$/.test(rate) || /^0(\.0+)?$/.test(rate)) throw fail(`${series.key}[${index}].Valor is not a rate`);
      if (Fecha < from || Fecha > to) return;
      byDate.set(Fecha, { date: Fecha, currency: series.currency, functionalCurrency: this.functionalCurrency, rate, source: this.source });
    });
    return [...byDate.values()];
  }

  /** The CMF's own explanation of a refusal (`{ "CodigoHTTP", "CodigoError", "Mensaje" }`), when it sent one. */
  private cmfMessage(text: string): string {
    try {
      const message = (JSON.parse(text) as { Mensaje?: unknown }).Mensaje;
      return typeof message === 'string' ? `: ${message.slice(0, 200)}` : '';
    } catch {
      return '';
    }
  }
}
