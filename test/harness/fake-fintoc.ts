import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A scripted answer for the next requests whose path and query match. */
interface Scripted {
  path: RegExp;
  status: number;
  body: unknown;
  headers?: Record<string, string>;
  times: number;
}

export interface FakeRequest {
  method: string;
  url: URL;
  headers: IncomingMessage['headers'];
  body: string;
}

/**
 * A local HTTP server playing Fintoc's documented Movements API v1 (docs.fintoc.com; reference
 * phase2-anchors section 2): raw secret key in Authorization, link intents, exchange, accounts,
 * movements with since (inclusive) / until (exclusive) on post_date, per_page (max 300) and
 * RFC 8288 Link paging, the `{ error: { type, code, message, param, doc_url } }` error body.
 * Tests script failures (`fail`), hold a page until released (`hold`), and read what was asked.
 */
export class FakeFintoc {
  readonly requests: FakeRequest[] = [];
  secretKey = 'sk_test_fake_fintoc_secret_key_0123456789';
  /** exchange token -> link (with its link_token and accounts). */
  readonly links = new Map<string, { linkToken: string; institution: string; accounts: Array<Record<string, unknown>> }>();
  /** account id -> its movements (Fintoc's shape), newest first. */
  readonly movements = new Map<string, Array<Record<string, unknown>>>();
  /** Override of the next page link's origin (to play a hostile answer). */
  nextOrigin: string | null = null;
  private scripted: Scripted[] = [];
  private holds = new Map<number, Promise<void>>();
  held = 0;
  private server!: Server;
  url = '';

  async start(): Promise<void> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }

  fail(path: RegExp, status: number, body: unknown, times = 1, headers?: Record<string, string>): void {
    this.scripted.push({ path, status, body, times, headers });
  }

  /** Holds the answer of movements page `page` until the returned release is called. */
  hold(page: number): () => void {
    let release!: () => void;
    this.holds.set(page, new Promise<void>((resolve) => (release = resolve)));
    return () => {
      this.holds.delete(page);
      release();
    };
  }

  reset(): void {
    this.requests.length = 0;
    this.scripted = [];
    this.holds.clear();
    this.nextOrigin = null;
  }

  private send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  }

  private error(res: ServerResponse, status: number, type: string, code: string, message: string): void {
    this.send(res, status, { error: { type, code, message, param: null, doc_url: `https://docs.fintoc.com/reference/errors#${code}` } });
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let body = '';
    for await (const chunk of req) body += String(chunk);
    const url = new URL(req.url ?? '/', this.url);
    this.requests.push({ method: req.method ?? 'GET', url, headers: req.headers, body });
    const scripted = this.scripted.find((s) => s.path.test(url.pathname + url.search));
    if (scripted) {
      if (--scripted.times <= 0) this.scripted = this.scripted.filter((s) => s !== scripted);
      return this.send(res, scripted.status, scripted.body, scripted.headers);
    }
    if (req.headers.authorization !== this.secretKey) return this.error(res, 401, 'authentication_error', 'invalid_api_key', 'Invalid API Key provided');

    if (req.method === 'POST' && url.pathname === '/v1/link_intents') {
      const input = JSON.parse(body) as Record<string, unknown>;
      if (input.product !== 'movements' || input.country !== 'cl') return this.error(res, 400, 'invalid_request_error', 'invalid_parameter', 'product or country');
      return this.send(res, 201, {
        id: 'li_fake1',
        object: 'link_intent',
        country: 'cl',
        created_at: '2026-06-15T12:00:00.000Z',
        exchange_token: null,
        exchange_token_expires_at: '2026-06-15T12:30:00.000Z',
        holder_type: input.holder_type,
        mode: 'test',
        product: 'movements',
        status: 'created',
        widget_token: 'li_fake1_sec_widgettoken',
      });
    }
    if (url.pathname === '/v1/links/exchange') {
      const link = this.links.get(url.searchParams.get('exchange_token') ?? '');
      if (!link) return this.error(res, 404, 'invalid_request_error', 'invalid_exchange_token', 'Exchange token not found');
      return this.send(res, 200, {
        id: 'link_fake1',
        object: 'link',
        accounts: link.accounts,
        active: true,
        created_at: '2026-06-15T12:00:00.000Z',
        holder_id: '771806538',
        holder_type: 'business',
        institution: { id: 'cl_banco_de_chile', country: 'cl', name: link.institution },
        last_time_refreshed: null,
        link_token: link.linkToken,
        mode: 'test',
        refresh_status: 'ready',
        status: 'active',
        username: '771806538',
      });
    }
    const linkToken = url.searchParams.get('link_token');
    const link = [...this.links.values()].find((l) => l.linkToken === linkToken);
    if (!link) return this.error(res, 403, 'link_error', 'invalid_link_token', `No link for link_token ${linkToken}`);
    if (url.pathname === '/v1/accounts') return this.send(res, 200, link.accounts);
    const match = /^\/v1\/accounts\/([^/]+)\/movements$/.exec(url.pathname);
    if (match) {
      const all = this.movements.get(decodeURIComponent(match[1]));
      if (!all) return this.error(res, 404, 'invalid_request_error', 'missing_resource', 'No such account');
      const since = url.searchParams.get('since') ?? '0000';
      const until = url.searchParams.get('until') ?? '9999';
      const confirmedOnly = url.searchParams.get('confirmed_only') !== 'false';
      const perPage = Math.min(Number(url.searchParams.get('per_page') ?? 30), 300);
      const page = Number(url.searchParams.get('page') ?? 1);
      const rows = all.filter((m) => String(m.post_date).slice(0, 10) >= since && String(m.post_date).slice(0, 10) < until && (!confirmedOnly || m.status === 'confirmed'));
      const last = Math.max(1, Math.ceil(rows.length / perPage));
      const pageUrl = (n: number) => {
        const u = new URL(url.toString());
        if (this.nextOrigin) {
          const foreign = new URL(this.nextOrigin);
          u.protocol = foreign.protocol;
          u.host = foreign.host;
        }
        u.searchParams.set('page', String(n));
        return u.toString();
      };
      const links = [`<${pageUrl(1)}>; rel="first"`, `<${pageUrl(last)}>; rel="last"`];
      if (page > 1) links.push(`<${pageUrl(page - 1)}>; rel="prev"`);
      if (page < last) links.push(`<${pageUrl(page + 1)}>; rel="next"`);
      const hold = this.holds.get(page);
      if (hold) {
        this.held++;
        await hold;
        this.held--;
      }
      return this.send(res, 200, rows.slice((page - 1) * perPage, page * perPage), { link: links.join(', ') });
    }
    return this.error(res, 404, 'invalid_request_error', 'not_found', 'Not found');
  }
}

/** A Fintoc movement as documented (amount positive for money in). */
export function fintocMovement(n: number, postDate: string, amount: number, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const party = { holder_id: '771806538', holder_name: 'Comercial y Producción SpA', number: '1530108000', institution: { id: 'cl_banco_de_chile', name: 'Banco de Chile', country: 'cl' } };
  return {
    id: `mov_${String(n).padStart(6, '0')}`,
    object: 'movement',
    amount,
    currency: 'CLP',
    description: amount > 0 ? 'Traspaso de:Comercial y Producción SpA' : 'Traspaso a:Comercial y Producción SpA',
    comment: null,
    post_date: `${postDate}T00:00:00.000Z`,
    transaction_date: `${postDate}T11:31:12.000Z`,
    type: 'transfer',
    recipient_account: amount > 0 ? null : party,
    sender_account: amount > 0 ? party : null,
    reference_id: String(123740000 + n),
    pending: false,
    status: 'confirmed',
    ...extra,
  };
}

export function fintocAccount(id: string, currency = 'CLP', extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id,
    object: 'account',
    balance: { available: 7010000, current: 7010000, limit: 7510000 },
    currency,
    holder_id: '771806538',
    holder_name: 'Comercial y Producción SpA',
    name: 'Cuenta Corriente',
    next_refresh: null,
    number: '1530108000',
    official_name: 'Cuenta Corriente Moneda Local',
    refresh_status: 'ready',
    refreshed_at: '2026-06-15T11:00:00.000Z',
    removed_from_link: false,
    type: 'checking_account',
    ...extra,
  };
}
