import type { BankProviderKind, HolderType, ProviderFailureInfo } from '../domain/bank-connection';

export interface LinkIntent {
  widgetToken: string;
  publicKey: string;
  expiresAt: Date;
}

export interface ExchangedLink {
  /** The secret that reads the link: stored encrypted at once, never shown. */
  linkToken: string;
  institutionName: string;
  holderName: string;
}

/** What the adapters read a link with: the connection id (the sandbox derives its bank from it) and the link token. */
export interface LinkRef {
  connectionId: string;
  linkToken: string;
}

/** A discovered account (spec "live panel"). */
export interface ProviderAccount {
  providerAccountId: string;
  name: string;
  number: string;
  type: string;
  currency: string;
  balances: { available: number; current: number };
  refreshedAt: Date | null;
}

/** A provider movement mapped per D67a (amount positive, side on a bank account: money in is debit). */
export interface ProviderMovement {
  providerMovementId: string;
  movementDate: string;
  description: string;
  amount: number;
  side: 'debit' | 'credit';
  reference: string | null;
  counterpartyName: string | null;
  counterpartyTaxId: string | null;
}

/** A provider answered with a failure (or not at all): what the connection's status becomes. */
export class BankProviderFailure extends Error {
  /**
   * @param inputRejected the provider refused what the caller sent (an unknown or expired exchange
   * token): a client error (400), not the provider failing (502).
   */
  constructor(
    readonly info: ProviderFailureInfo,
    readonly inputRejected = false,
  ) {
    super(info.message);
    this.name = 'BankProviderFailure';
  }
}

/**
 * D67: the port every bank provider adapter implements. Each call either answers or throws a
 * BankProviderFailure; `movements` reads every page of the window (since and until inclusive
 * dates of the movement) before answering, so a failure at any page answers nothing.
 */
export abstract class BankProvider {
  abstract readonly kind: BankProviderKind;
  /** Whether extra provider account ids must be published to the provider (none today, D77). */
  abstract readonly needsAccountPublication: boolean;
  abstract createLinkIntent(input: { holderType: HolderType }): Promise<LinkIntent>;
  abstract exchange(exchangeToken: string, connectionId: string): Promise<ExchangedLink>;
  abstract accounts(link: LinkRef): Promise<ProviderAccount[]>;
  abstract movements(link: LinkRef, providerAccountId: string, window: { since: string; until: string }): Promise<ProviderMovement[]>;
}

/** The enabled adapters by kind (sandbox unless BANK_SANDBOX_ENABLED=false; fintoc with its secret key). */
export abstract class BankProviders {
  abstract enabled(): BankProviderKind[];
  /** The adapter of an enabled provider, or null. */
  abstract get(kind: BankProviderKind): BankProvider | null;
}

/** D67: link tokens at rest (AES-256-GCM). */
export abstract class CredentialCipher {
  abstract encrypt(plaintext: string): string;
  abstract decrypt(ciphertext: string): string;
}

/**
 * The link of a stored connection, decrypted for one adapter call. A value the key cannot open
 * (CREDENTIALS_ENCRYPTION_KEY changed, or the row was altered) is a failure the user fixes by
 * reconnecting: login_required.
 */
export function openLink(cipher: CredentialCipher, connection: { id: string; linkTokenCiphertext: string }): LinkRef {
  try {
    return { connectionId: connection.id, linkToken: cipher.decrypt(connection.linkTokenCiphertext) };
  } catch {
    throw new BankProviderFailure({ status: 'login_required', message: 'The stored link cannot be read with the current encryption key: reconnect the connection' });
  }
}
