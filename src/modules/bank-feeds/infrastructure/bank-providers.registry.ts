import { BankProvider, BankProviders } from '../application/bank-provider';
import type { BankProviderKind } from '../domain/bank-connection';

/** The adapters enabled by configuration, by kind. */
export class ConfiguredBankProviders extends BankProviders {
  private readonly byKind: Map<BankProviderKind, BankProvider>;

  constructor(adapters: Array<BankProvider | null>) {
    super();
    this.byKind = new Map(adapters.filter((a): a is BankProvider => a !== null).map((a) => [a.kind, a]));
  }

  enabled(): BankProviderKind[] {
    return [...this.byKind.keys()].sort();
  }

  get(kind: BankProviderKind): BankProvider | null {
    return this.byKind.get(kind) ?? null;
  }
}
