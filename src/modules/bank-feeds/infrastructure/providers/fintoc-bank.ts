import { canonicalRut } from '../../../../../libs/shared-kernel/src';
import { BankProvider, BankProviderFailure, ExchangedLink, LinkIntent, LinkRef, ProviderAccount, ProviderMovement } from '../../application/bank-provider';
import { addDays } from '../../../../../libs/shared-kernel/src';
import { type HolderType, type ProviderFailureInfo } from '../../domain/bank-connection';

export interface FintocSettings {
  /** Origin of Fintoc's API (FINTOC_BASE_URL); calls go to `{baseUrl}/v1/...`. */
  baseUrl: string;
  /** Sent as the raw Authorization header (D67a). */
  secretKey: string;
  /** The widget's public key, given back with a link intent ('' when not configured). */
  publicKey: string;
  /** The time one adapter call (every page and retry of it) may take. */
  budgetMs: number;
  /** First backoff of a retried 429 or 5xx (doubles each time, Retry-After wins when larger). */
  backoffMs?: number;
  /** Movements per page (Fintoc's maximum, 300). */
  perPage?: number;
}

interface FintocAnswer {
  body: unknown;
  link: string | null;
}

interface FintocErrorBody {
  error?: { type?: string; code?: string; message?: string; param?: string };
}

/** Fintoc error codes and types that mean the bank credentials must be entered again. */
const CREDENTIAL_CODES = new Set(['invalid_credentials', 'credentials_changed', 'link_credentials_changed', 'login_required', 'invalid_link_token', 'link_not_found', 'requires_mfa', 'mfa_required', 'account_locked', 'blocked_credentials']);

type Json = Record<string, unknown>;
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const obj = (v: unknown): Json => (typeof v === 'object' && v !== null ? (v as Json) : {});

/** The `rel="next"` URL of an RFC 8288 Link header. */
export function nextLink(header: string | null): string | null {
  if (!header) return null;
  for (const part of header.split(',')) {
    const match = /<([^>]+)>\s*;(.*)/.exec(part.trim());
    if (match && /rel="?next"?/.test(match[2])) return match[1];
  }
  return null;
}

/**
 * D67, D67a: Fintoc's Movements API (v1). Every call runs within `budgetMs`: 429 and 5xx are
 * retried with backoff while time remains; any other failure, or none left, is a
 * BankProviderFailure (`login_required` for credential errors, `error` otherwise) whose message
 * never carries the secret key, a token or a URL. Pages are followed through the Link header,
 * only on Fintoc's own origin (the secret key is never sent elsewhere).
 */
export class FintocBank extends BankProvider {
  readonly kind = 'fintoc' as const;
  readonly needsAccountPublication = false;
  private readonly origin: string;

  constructor(private readonly settings: FintocSettings) {
    super();
    this.origin = new URL(settings.baseUrl).origin;
  }

  async createLinkIntent(input: { holderType: HolderType }): Promise<LinkIntent> {
    const deadline = Date.now() + this.settings.budgetMs;
    const { body } = await this.request('POST', this.url('/v1/link_intents'), deadline, [], { product: 'movements', country: 'cl', holder_type: input.holderType });
    const intent = obj(body);
    const widgetToken = str(intent.widget_token);
    if (!widgetToken) throw this.failure('error', 'Fintoc answered a link intent without a widget token');
    const expires = str(intent.exchange_token_expires_at);
    return { widgetToken, publicKey: this.settings.publicKey, expiresAt: expires && !Number.isNaN(Date.parse(expires)) ? new Date(expires) : new Date(Date.now() + 30 * 60_000) };
  }

  async exchange(exchangeToken: string): Promise<ExchangedLink> {
    const deadline = Date.now() + this.settings.budgetMs;
    const url = this.url('/v1/links/exchange', { exchange_token: exchangeToken });
    let answer: FintocAnswer;
    try {
      answer = await this.request('GET', url, deadline, [exchangeToken]);
    } catch (error) {
      // Fintoc refusing the token itself (400, 404, 422) is the caller's error, not Fintoc failing.
      const status = (error as { httpStatus?: number }).httpStatus;
      if (error instanceof BankProviderFailure && status !== undefined && [400, 404, 422].includes(status)) {
        throw new BankProviderFailure(error.info, true);
      }
      throw error;
    }
    const link = obj(answer.body);
    const linkToken = str(link.link_token);
    if (!linkToken) throw this.failure('error', 'Fintoc answered the exchange without a link token');
    const accounts = Array.isArray(link.accounts) ? link.accounts.map(obj) : [];
    return {
      linkToken,
      institutionName: str(obj(link.institution).name) ?? 'Fintoc',
      holderName: accounts.map((a) => str(a.holder_name)).find((name) => name) ?? str(link.username) ?? '',
    };
  }

  async accounts(link: LinkRef): Promise<ProviderAccount[]> {
    const deadline = Date.now() + this.settings.budgetMs;
    const { body } = await this.request('GET', this.url('/v1/accounts', { link_token: link.linkToken }), deadline, [link.linkToken]);
    if (!Array.isArray(body)) throw this.failure('error', 'Fintoc answered the accounts with something other than a list');
    return body.map(obj).map((a) => {
      const balance = obj(a.balance);
      const refreshed = str(a.refreshed_at);
      return {
        providerAccountId: str(a.id) ?? '',
        name: str(a.name) ?? str(a.official_name) ?? '',
        number: str(a.number) ?? '',
        type: str(a.type) ?? 'unknown',
        currency: (str(a.currency) ?? '').toUpperCase(),
        balances: { available: integer(balance.available), current: integer(balance.current) },
        refreshedAt: refreshed && !Number.isNaN(Date.parse(refreshed)) ? new Date(refreshed) : null,
      };
    });
  }

  /** Every confirmed movement whose post_date is in since..until (Fintoc's `until` is exclusive: the day after). */
  async movements(link: LinkRef, providerAccountId: string, window: { since: string; until: string }): Promise<ProviderMovement[]> {
    const deadline = Date.now() + this.settings.budgetMs;
    let url: string | null = this.url(`/v1/accounts/${encodeURIComponent(providerAccountId)}/movements`, {
      link_token: link.linkToken,
      since: window.since,
      until: addDays(window.until, 1),
      per_page: String(this.settings.perPage ?? 300),
      confirmed_only: 'true',
    });
    const movements: ProviderMovement[] = [];
    while (url) {
      const answer = await this.request('GET', url, deadline, [link.linkToken]);
      if (!Array.isArray(answer.body)) throw this.failure('error', 'Fintoc answered a movements page with something other than a list');
      for (const raw of answer.body.map(obj)) {
        const movement = toMovement(raw);
        if (movement) movements.push(movement);
      }
      url = nextLink(answer.link);
      if (url !== null && new URL(url, this.origin).origin !== this.origin) throw this.failure('error', "Fintoc's next page link leaves Fintoc's origin: not followed");
      if (url !== null) url = new URL(url, this.origin).toString();
    }
    return movements;
  }

  private url(path: string, query: Record<string, string> = {}): string {
    const url = new URL(`${this.settings.baseUrl}${path}`);
    for (const [key, value] of Object.entries(query)) url.searchParams.set(key, value);
    return url.toString();
  }

  private failure(status: ProviderFailureInfo['status'], message: string, secrets: string[] = []): BankProviderFailure {
    return new BankProviderFailure({ status, message: scrub(message, [this.settings.secretKey, ...secrets]) });
  }

  private async request(method: 'GET' | 'POST', url: string, deadline: number, secrets: string[], payload?: unknown): Promise<FintocAnswer> {
    let backoff = this.settings.backoffMs ?? 250;
    for (let attempt = 1; ; attempt++) {
      const remaining = deadline - Date.now();
      if (remaining <= 0) throw this.failure('error', 'Fintoc did not answer within the time of the request');
      let response: Response;
      try {
        response = await fetch(url, {
          method,
          headers: {
            Authorization: this.settings.secretKey,
            Accept: 'application/json',
            ...(payload !== undefined ? { 'Content-Type': 'application/json', 'Idempotency-Key': crypto.randomUUID() } : {}),
          },
          body: payload !== undefined ? JSON.stringify(payload) : undefined,
          signal: AbortSignal.timeout(remaining),
          redirect: 'error',
        });
      } catch (error) {
        const name = typeof error === 'object' && error !== null ? (error as { name?: unknown }).name : undefined;
        if (name === 'TimeoutError' || name === 'AbortError' || Date.now() >= deadline) throw this.failure('error', 'Fintoc did not answer within the time of the request');
        // A connection refused or reset: retried like a 503 while time remains.
        if (!(await this.wait(backoff, null, deadline))) throw this.failure('error', 'Fintoc could not be reached');
        backoff *= 2;
        continue;
      }
      if (response.ok) {
        let body: unknown;
        try {
          body = await response.json();
        } catch {
          if (Date.now() >= deadline) throw this.failure('error', 'Fintoc did not answer within the time of the request');
          throw this.failure('error', `Fintoc answered ${response.status} with a body that is not JSON`);
        }
        return { body, link: response.headers.get('link') };
      }
      const text = await response.text().catch(() => '');
      if (response.status === 429 || response.status >= 500) {
        if (await this.wait(backoff, response.headers.get('retry-after'), deadline)) {
          backoff *= 2;
          continue;
        }
        throw this.failure('error', `Fintoc answered ${response.status} ${response.status === 429 ? '(rate limited)' : '(unavailable)'} until the time of the request ran out (${attempt} attempts)`, secrets);
      }
      throw this.errorOf(response.status, text, secrets);
    }
  }

  /** Waits before a retry; false when the wait would pass the deadline. */
  private async wait(backoff: number, retryAfter: string | null, deadline: number): Promise<boolean> {
    const asked = retryAfter !== null && /^\d+$/.test(retryAfter) ? Number(retryAfter) * 1000 : 0;
    const delay = Math.max(backoff, asked);
    if (Date.now() + delay >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, delay));
    return true;
  }

  private errorOf(status: number, text: string, secrets: string[]): BankProviderFailure & { httpStatus?: number } {
    let error: FintocErrorBody['error'] = {};
    try {
      error = (JSON.parse(text) as FintocErrorBody).error ?? {};
    } catch {
      // Not Fintoc's error shape: the status alone speaks.
    }
    const code = error.code ?? '';
    const type = error.type ?? '';
    const credentials = CREDENTIAL_CODES.has(code) || type === 'link_error';
    const what = [type, code].filter(Boolean).join('/') || `HTTP ${status}`;
    const failure: BankProviderFailure & { httpStatus?: number } = this.failure(
      credentials ? 'login_required' : 'error',
      `Fintoc refused (${status} ${what})${error.message ? `: ${error.message}` : ''}`,
      secrets,
    );
    failure.httpStatus = status;
    return failure;
  }
}

function integer(value: unknown): number {
  return typeof value === 'number' && Number.isSafeInteger(value) ? value : 0;
}

/** Removes the secrets it knows and anything shaped like a Fintoc key or token from a message. */
export function scrub(message: string, secrets: string[]): string {
  let text = message;
  for (const secret of secrets) if (secret) text = text.split(secret).join('[redacted]');
  return text.replace(/\b(sk|pk|li|link|lt|wt)_[A-Za-z0-9_-]{6,}/g, '[redacted]').replace(/[A-Za-z0-9_-]{32,}/g, '[redacted]').slice(0, 500);
}

/** D67a: amount the absolute value, its sign the side; the counterparty the sender's (money in) or the recipient's. */
export function toMovement(raw: Json): ProviderMovement | null {
  const id = str(raw.id);
  const amount = raw.amount;
  const postDate = str(raw.post_date);
  if (!id || typeof amount !== 'number' || !Number.isSafeInteger(amount) || amount === 0 || !postDate || !/^\d{4}-\d{2}-\d{2}/.test(postDate)) return null;
  const moneyIn = amount > 0;
  const party = obj(moneyIn ? raw.sender_account : raw.recipient_account);
  const holderId = str(party.holder_id);
  return {
    providerMovementId: id,
    movementDate: postDate.slice(0, 10),
    description: (str(raw.description) ?? '').slice(0, 500) || '(no description)',
    amount: Math.abs(amount),
    side: moneyIn ? 'debit' : 'credit',
    reference: str(raw.reference_id),
    counterpartyName: str(party.holder_name),
    counterpartyTaxId: holderId ? canonicalRut(holderId) : null,
  };
}
