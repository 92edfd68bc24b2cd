import { Injectable } from '@nestjs/common';
import { Transactional } from '@nestjs-cls/transactional';
import { newId } from '../../../../libs/shared-kernel/src';
import { Clock } from '../../../platform/clock/clock';
import { translateForeignKeyViolation, translateUniqueViolation } from '../../../platform/database/pg-errors';
import type { AccountType, Subtype, Tracking } from '../domain/account-types';
import { AccountChange, AccountGroup, LedgerAccount, newAccountGroup } from '../domain/chart';
import {
  chartInitializationExists,
  chartRequiresEmpty,
  chartTemplateNotFound,
  groupAlreadyExists,
  groupIdAlreadyExists,
  groupNotFound,
  ledgerAccountAlreadyExists,
  ledgerAccountCodeAlreadyExists,
  ledgerAccountInUse,
  ledgerAccountNotFound,
} from '../domain/ledger-errors';
import { ChartRepository } from '../domain/ledger-ports';
import { AccountUsage, AccountUsageProbes } from './account-usage';
import { findTemplate } from './chart-templates';

export interface AccountView {
  account: LedgerAccount;
  usage: AccountUsage;
}

@Injectable()
export class ChartService {
  constructor(
    private readonly chart: ChartRepository,
    private readonly usage: AccountUsageProbes,
    private readonly clock: Clock,
  ) {}

  async chartOf(entityId: string): Promise<{ groups: AccountGroup[]; accounts: AccountView[] }> {
    return { groups: await this.chart.groups(entityId), accounts: await this.accounts(entityId) };
  }

  async accounts(entityId: string): Promise<AccountView[]> {
    const accounts = await this.chart.accounts(entityId);
    const usageOf = await this.usage.usage(entityId);
    return accounts.map((account) => ({ account, usage: usageOf(account.id) }));
  }

  async account(entityId: string, accountId: string): Promise<LedgerAccount> {
    const account = await this.chart.findAccount(entityId, accountId);
    if (!account) throw ledgerAccountNotFound({ accountId });
    return account;
  }

  /**
   * The account a record being written will name (a partner's default purchase account): it stays
   * until that transaction ends, so a concurrent delete waits and then sees the reference.
   */
  async holdAccountForReference(entityId: string, accountId: string): Promise<LedgerAccount> {
    const account = await this.chart.holdAccountForReference(entityId, accountId);
    if (!account) throw ledgerAccountNotFound({ accountId });
    return account;
  }

  @Transactional()
  async createGroup(
    entityId: string,
    input: { id: string; parentGroupId: string | null; codePrefix: string; name: string; type: AccountType },
  ): Promise<AccountGroup> {
    // Beside other creates, never beside an initialization (which judges the chart empty).
    await this.chart.holdChart(entityId);
    if (await this.chart.findGroup(entityId, input.id)) throw groupIdAlreadyExists({ groupId: input.id });
    const parent = input.parentGroupId ? await this.chart.findGroup(entityId, input.parentGroupId) : null;
    if (input.parentGroupId && !parent) throw groupNotFound({ groupId: input.parentGroupId });
    const group = newAccountGroup({ entityId, ...input }, parent, this.clock.now());
    if (await this.chart.findGroupByPrefix(entityId, group.codePrefix)) throw groupAlreadyExists({ codePrefix: group.codePrefix });
    await translateUniqueViolation(() => this.chart.insertGroups([group]), () => groupIdAlreadyExists({ groupId: group.id }), {
      ledger_account_groups_code_prefix_key: () => groupAlreadyExists({ codePrefix: group.codePrefix }),
    });
    return group;
  }

  @Transactional()
  async createAccount(
    entityId: string,
    input: { id: string; name: string; code: string; type: AccountType; tracking: Tracking; subtype: Subtype | null; groupId: string | null },
  ): Promise<AccountView> {
    await this.chart.holdChart(entityId);
    if (await this.chart.findAccount(entityId, input.id)) throw ledgerAccountAlreadyExists({ accountId: input.id });
    const group = await this.groupOrNull(entityId, input.groupId);
    const account = LedgerAccount.open({ entityId, ...input }, group, this.clock.now());
    if (await this.chart.findAccountByCode(entityId, account.code)) throw ledgerAccountCodeAlreadyExists({ code: account.code });
    await translateUniqueViolation(() => this.chart.insertAccounts([account]), () => ledgerAccountAlreadyExists({ accountId: account.id }), {
      ledger_accounts_code_key: () => ledgerAccountCodeAlreadyExists({ code: account.code }),
    });
    return { account, usage: (await this.usage.usage(entityId, [account.id]))(account.id) };
  }

  @Transactional()
  async updateAccount(entityId: string, accountId: string, change: AccountChange): Promise<AccountView> {
    const account = await this.chart.lockAccount(entityId, accountId);
    if (!account) throw ledgerAccountNotFound({ accountId });
    const usage = (await this.usage.usage(entityId, [accountId]))(accountId);
    const groupId = change.groupId !== undefined ? change.groupId : account.groupId;
    const group = await this.groupOrNull(entityId, groupId);
    // A bank account's kind was judged against this type (D78): while one maps the account, it
    // is held like an account with entries, lest a bank account end up on a liability.
    account.change(change, usage.hasEntries || usage.isMappedByBankAccount, group, this.clock.now());
    if (change.code !== undefined) {
      const holder = await this.chart.findAccountByCode(entityId, account.code);
      if (holder && holder.id !== accountId) throw ledgerAccountCodeAlreadyExists({ code: account.code });
    }
    await translateUniqueViolation(() => this.chart.saveAccount(account), () => ledgerAccountCodeAlreadyExists({ code: account.code }));
    return { account, usage };
  }

  /** Refused while lines, a bank account or a partner's default purchase account use it. */
  @Transactional()
  async deleteAccount(entityId: string, accountId: string): Promise<void> {
    const account = await this.chart.lockAccount(entityId, accountId);
    if (!account) throw ledgerAccountNotFound({ accountId });
    const { deleteBlockedBy } = (await this.usage.usage(entityId, [accountId]))(accountId);
    if (deleteBlockedBy) throw ledgerAccountInUse({ accountId, blockedBy: deleteBlockedBy });
    // Lines of unbooked or cancelled entries still point at it: the books keep their history.
    await translateForeignKeyViolation(() => this.chart.deleteAccount(entityId, accountId), () => ledgerAccountInUse({ accountId, blockedBy: 'entries' }));
  }

  /**
   * D32: copies a template's groups and accounts with fresh ids into an empty chart, in one
   * transaction. A reused initialization id is refused first, even once the chart is full. The
   * chart lock waits for group and account creates in flight (which hold it shared), so the chart
   * is judged empty only when no create can still add to it.
   */
  @Transactional()
  async initialize(entityId: string, input: { id: string; templateKey: string; templateVersion: string }): Promise<{ groups: AccountGroup[]; accounts: AccountView[] }> {
    await this.chart.lockChart(entityId);
    if (await this.chart.initializationExists(entityId, input.id)) throw chartInitializationExists({ initializationId: input.id });
    const template = findTemplate(input.templateKey, input.templateVersion);
    if (!template) throw chartTemplateNotFound({ templateKey: input.templateKey, templateVersion: input.templateVersion });
    if (!(await this.chart.isEmpty(entityId))) throw chartRequiresEmpty({ entityId });

    const now = this.clock.now();
    const groupsByRef = new Map<string, AccountGroup>();
    for (const g of template.groups) {
      const parent = g.parentRef ? groupsByRef.get(g.parentRef)! : null;
      groupsByRef.set(
        g.ref,
        newAccountGroup({ entityId, id: newId(), parentGroupId: parent?.id ?? null, codePrefix: g.codePrefix, name: g.name, type: g.type }, parent, now),
      );
    }
    const accounts = template.accounts.map((a) => {
      const group = a.groupRef ? groupsByRef.get(a.groupRef)! : null;
      return LedgerAccount.open(
        { entityId, id: newId(), groupId: group?.id ?? null, code: a.code, name: a.name, type: a.type, tracking: a.tracking, subtype: a.subtype },
        group,
        now,
      );
    });
    await this.chart.insertGroups([...groupsByRef.values()]);
    await this.chart.insertAccounts(accounts);
    await this.chart.recordInitialization(entityId, input.id, template.key, template.version, now);
    return this.chartOf(entityId);
  }

  private async groupOrNull(entityId: string, groupId: string | null): Promise<AccountGroup | null> {
    if (!groupId) return null;
    const group = await this.chart.findGroup(entityId, groupId);
    if (!group) throw groupNotFound({ groupId });
    return group;
  }
}
