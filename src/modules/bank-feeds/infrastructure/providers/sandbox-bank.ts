import { createHash, randomBytes } from 'node:crypto';
import { rutCheckDigit } from '../../../../../libs/shared-kernel/src';
import { Clock } from '../../../../platform/clock/clock';
import { BankProvider, BankProviderFailure, ExchangedLink, LinkIntent, LinkRef, ProviderAccount, ProviderMovement } from '../../application/bank-provider';
import { addDays } from '../../../../../libs/shared-kernel/src';
import { type ProviderFailureInfo } from '../../domain/bank-connection';

/** Movements per page, as Fintoc's largest page: failure injection counts pages of this size. */
export const SANDBOX_PAGE_SIZE = 300;
/** D77: the sandbox's history. */
const HISTORY_DAYS = 120;
export const SANDBOX_PUBLIC_KEY = 'pk_sandbox_not_a_real_key';

const ACCOUNTS = [
  { key: 'clp_checking', name: 'Cuenta Corriente Sandbox', type: 'checking_account', currency: 'CLP' },
  { key: 'usd_checking', name: 'Cuenta Corriente Dólar Sandbox', type: 'checking_account', currency: 'USD' },
  { key: 'clp_credit_card', name: 'Tarjeta de Crédito Sandbox', type: 'credit_card', currency: 'CLP' },
] as const;

const COUNTERPARTIES = ['Comercial Andes SpA', 'Servicios Pacífico Ltda', 'Distribuidora Sur SA', 'Inversiones Norte SpA', 'Transportes Maule Ltda'];

export interface SandboxSettings {
  dailyMovements: number;
  /** Every movements read fails at this page (0: never). */
  failAtPage: number;
}

/** A failure armed by a test or a demo: the next `times` movement reads fail at `atPage`. */
export interface InjectedFailure extends ProviderFailureInfo {
  atPage: number;
  times: number;
}

function digest(...parts: string[]): Buffer {
  return createHash('sha256').update(parts.join('|')).digest();
}

function isBusinessDay(date: string): boolean {
  const weekday = new Date(`${date}T00:00:00Z`).getUTCDay();
  return weekday !== 0 && weekday !== 6;
}

function counterpartyRut(seed: number): string {
  const body = String(60_000_000 + (seed % 30_000_000));
  return `${body}-${rutCheckDigit(body)}`;
}

/**
 * D77, D77a: a deterministic simulated bank. The widget token of its link intent is accepted as
 * the exchange token; a link discovers three accounts, each with `dailyMovements` movements a
 * business day over the last 120 days, all derived from the connection id (a day's movements are
 * fixed for that day). Failure injection: `failAtPage` for every read, or `inject` (tests) for
 * the next reads.
 */
export class SandboxBank extends BankProvider {
  readonly kind = 'sandbox' as const;
  readonly needsAccountPublication = false;
  private injected: InjectedFailure | null = null;
  private gate: Promise<void> | null = null;
  /** Movement reads waiting at the gate (tests: "a sync is between its read and its landing"). */
  waitingReads = 0;

  constructor(
    private readonly clock: Clock,
    readonly settings: SandboxSettings,
  ) {
    super();
  }

  /** Arms a failure for the next `times` movement reads (default once). */
  inject(failure: Partial<InjectedFailure> & { atPage: number }): void {
    this.injected = { status: 'error', message: 'The sandbox bank is unavailable (injected failure)', times: 1, ...failure };
  }

  /** Disarms an injected failure. */
  resetFailures(): void {
    this.injected = null;
  }

  /** Holds every movement read until the returned release is called (tests: a slow bank, without sleeps). */
  holdReads(): () => void {
    let release!: () => void;
    this.gate = new Promise<void>((resolve) => (release = resolve));
    return () => {
      this.gate = null;
      release();
    };
  }

  createLinkIntent(): Promise<LinkIntent> {
    return Promise.resolve({
      widgetToken: `sandbox_wt_${randomBytes(16).toString('hex')}`,
      publicKey: SANDBOX_PUBLIC_KEY,
      expiresAt: new Date(this.clock.now().getTime() + 30 * 60_000),
    });
  }

  exchange(exchangeToken: string): Promise<ExchangedLink> {
    if (!/^sandbox_wt_[0-9a-f]{32}$/.test(exchangeToken)) {
      return Promise.reject(new BankProviderFailure({ status: 'login_required', message: 'The sandbox does not know this exchange token' }, true));
    }
    return Promise.resolve({ linkToken: `sandbox_lt_${randomBytes(24).toString('hex')}`, institutionName: 'Banco Sandbox', holderName: 'Titular Sandbox SpA' });
  }

  accounts(link: LinkRef): Promise<ProviderAccount[]> {
    const refreshedAt = this.clock.now();
    return Promise.resolve(
      ACCOUNTS.map((a, index) => {
        const seed = digest(link.connectionId, a.key).readUInt32BE(0);
        const current = (seed % 50_000_000) * (a.currency === 'USD' ? 1 : 10);
        return {
          providerAccountId: this.accountId(link.connectionId, a.key),
          name: a.name,
          number: String(10_000_000 + (seed % 89_999_999)),
          type: a.type,
          currency: a.currency,
          balances: { available: current - (index === 2 ? 0 : seed % 1000), current },
          refreshedAt,
        };
      }),
    );
  }

  async movements(link: LinkRef, providerAccountId: string, window: { since: string; until: string }): Promise<ProviderMovement[]> {
    if (this.gate) {
      this.waitingReads++;
      await this.gate.finally(() => this.waitingReads--);
    }
    return this.generate(link, providerAccountId, window);
  }

  private generate(link: LinkRef, providerAccountId: string, window: { since: string; until: string }): Promise<ProviderMovement[]> {
    const account = ACCOUNTS.find((a) => this.accountId(link.connectionId, a.key) === providerAccountId);
    if (!account) return Promise.reject(new BankProviderFailure({ status: 'error', message: 'The sandbox has no such account on this link' }));
    const today = this.clock.today();
    const first = [window.since, addDays(today, -HISTORY_DAYS)].sort()[1];
    const last = [window.until, today].sort()[0];
    const failure = this.takeFailure();
    const movements: ProviderMovement[] = [];
    let page = 1;
    for (let day = first; day <= last; day = addDays(day, 1)) {
      if (!isBusinessDay(day)) continue;
      for (let n = 0; n < this.settings.dailyMovements; n++) {
        movements.push(this.movement(link.connectionId, account.key, day, n));
        if (movements.length === page * SANDBOX_PAGE_SIZE) page++;
        if (failure && page >= failure.atPage) return Promise.reject(new BankProviderFailure(failure));
      }
    }
    return Promise.resolve(movements);
  }

  private takeFailure(): ProviderFailureInfo & { atPage: number } | null {
    if (this.injected) {
      const armed = this.injected;
      this.injected = armed.times > 1 ? { ...armed, times: armed.times - 1 } : null;
      return armed;
    }
    if (this.settings.failAtPage > 0) {
      return { atPage: this.settings.failAtPage, status: 'error', message: `The sandbox bank failed at page ${this.settings.failAtPage} (BANK_SANDBOX_FAIL_AT_PAGE)` };
    }
    return null;
  }

  private accountId(connectionId: string, key: string): string {
    return `acc_sbx_${digest(connectionId, key).toString('hex').slice(0, 16)}_${key}`;
  }

  private movement(connectionId: string, accountKey: string, day: string, n: number): ProviderMovement {
    const h = digest(connectionId, accountKey, day, String(n));
    const seed = h.readUInt32BE(0);
    const moneyIn = accountKey === 'clp_credit_card' ? seed % 5 === 0 : seed % 2 === 0;
    const counterparty = COUNTERPARTIES[seed % COUNTERPARTIES.length];
    const amount = 1 + (h.readUInt32BE(4) % (accountKey === 'usd_checking' ? 500_000 : 5_000_000));
    // A card account's liability: a payment to the card (money in) is a debit (D65).
    return {
      providerMovementId: `mov_sbx_${h.toString('hex').slice(8, 32)}`,
      movementDate: day,
      description: moneyIn ? `Transferencia de ${counterparty}` : `Pago a ${counterparty}`,
      amount,
      side: moneyIn ? 'debit' : 'credit',
      reference: String(h.readUInt32BE(8)),
      counterpartyName: counterparty,
      counterpartyTaxId: counterpartyRut(h.readUInt32BE(12)),
    };
  }
}
