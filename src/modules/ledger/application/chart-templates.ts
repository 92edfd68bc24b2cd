import type { AccountType, Subtype, Tracking } from '../domain/account-types';
import clPyme from '../domain/chart-templates/cl-pyme.json';
import ifrsSme from '../domain/chart-templates/ifrs-sme.json';

export interface ChartTemplate {
  key: string;
  version: string;
  locale: string;
  effectiveFrom: string;
  groups: Array<{ ref: string; parentRef: string | null; codePrefix: string; name: string; type: AccountType }>;
  accounts: Array<{ groupRef: string | null; code: string; name: string; type: AccountType; tracking: Tracking; subtype: Subtype | null }>;
}

export interface ChartTemplateSummary {
  key: string;
  version: string;
  locale: string;
  effectiveFrom: string;
  groupCount: number;
  accountCount: number;
}

/** D32: the templates are versioned data files kept in the repository. */
export const CHART_TEMPLATES: readonly ChartTemplate[] = [clPyme as ChartTemplate, ifrsSme as ChartTemplate];

export function templateSummaries(): ChartTemplateSummary[] {
  return CHART_TEMPLATES.map(({ key, version, locale, effectiveFrom, groups, accounts }) => ({
    key,
    version,
    locale,
    effectiveFrom,
    groupCount: groups.length,
    accountCount: accounts.length,
  }));
}

export function findTemplate(key: string, version: string): ChartTemplate | undefined {
  return CHART_TEMPLATES.find((template) => template.key === key && template.version === version);
}
