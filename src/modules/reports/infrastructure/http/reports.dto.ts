import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

// Response schemas of the seven report routes (D50-D57). Amounts are exact JSON integers (D6a):
// minor units of the Entity's currency, or of the presentation currency when one is asked for.

const amount = (description?: string) => ApiProperty({ type: 'integer', format: 'int64', description });
const nullableUuid = (description?: string) => ApiProperty({ type: String, format: 'uuid', nullable: true, description });

export class PresentationResponse {
  @ApiProperty({ example: 'USD' }) currency: string;
  @ApiProperty({ example: '0.00105', description: 'Canonical decimal string' }) rate: string;
}

export class AccountNodeResponse {
  @ApiProperty({ format: 'uuid' }) accountId: string;
  @ApiProperty() code: string;
  @ApiProperty() name: string;
  @amount('In the normal-side sign (D50)') balance: number;
}

export class GroupNodeResponse {
  @ApiProperty({ format: 'uuid' }) groupId: string;
  @ApiProperty() codePrefix: string;
  @ApiProperty() name: string;
  @amount('Sum of its accounts and subgroups') total: number;
  @ApiProperty({ type: () => [GroupNodeResponse] }) groups: GroupNodeResponse[];
  @ApiProperty({ type: () => [AccountNodeResponse] }) accounts: AccountNodeResponse[];
}

export class SectionResponse {
  @amount() total: number;
  @ApiProperty({ type: () => [GroupNodeResponse] }) groups: GroupNodeResponse[];
  @ApiProperty({ type: () => [AccountNodeResponse], description: 'Accounts with no group' }) accounts: AccountNodeResponse[];
}

export class EquitySectionResponse extends SectionResponse {
  @amount('Result Accounts from exerciseStart to cutoffDate, profit positive') currentPeriodResult: number;
  @amount('Result Accounts before exerciseStart, profit positive') priorPeriodsResult: number;
  @ApiPropertyOptional({ type: 'integer', format: 'int64', description: 'Only with a presentation currency (D57)' }) presentationRoundingDifference?: number;
}

export class BalanceSheetTotalsResponse {
  @amount() assets: number;
  @amount() liabilitiesAndEquity: number;
}

class ReportHeader {
  @ApiProperty({ example: 'CLP' }) currency: string;
  @nullableUuid() bookId: string | null;
  @ApiProperty({ type: PresentationResponse, nullable: true }) presentation: PresentationResponse | null;
}

export class BalanceSheetResponse extends ReportHeader {
  @ApiProperty({ format: 'date' }) exerciseStart: string;
  @ApiProperty({ format: 'date' }) cutoffDate: string;
  @ApiProperty({ type: SectionResponse }) assets: SectionResponse;
  @ApiProperty({ type: SectionResponse }) liabilities: SectionResponse;
  @ApiProperty({ type: EquitySectionResponse }) equity: EquitySectionResponse;
  @ApiProperty({ type: BalanceSheetTotalsResponse }) totals: BalanceSheetTotalsResponse;
}

export class IncomeStatementResponse extends ReportHeader {
  @ApiProperty({ format: 'date' }) from: string;
  @ApiProperty({ format: 'date' }) to: string;
  @ApiProperty({ type: SectionResponse }) income: SectionResponse;
  @ApiProperty({ type: SectionResponse }) costOfGoodsSold: SectionResponse;
  @amount() grossProfit: number;
  @ApiProperty({ type: SectionResponse }) operatingExpense: SectionResponse;
  @amount() operatingResult: number;
  @ApiProperty({ type: SectionResponse }) otherIncome: SectionResponse;
  @ApiProperty({ type: SectionResponse }) otherExpense: SectionResponse;
  @amount('Profit positive') netResult: number;
}

export class DimensionColumnResponse {
  @ApiProperty({ format: 'uuid' }) dimensionValueId: string;
  @ApiProperty() code: string;
  @ApiProperty() name: string;
  @ApiProperty({ type: IncomeStatementResponse, description: "Includes the lines of the value's descendants" }) statement: IncomeStatementResponse;
}

export class IncomeStatementByDimensionResponse extends ReportHeader {
  @ApiProperty({ format: 'uuid' }) dimensionId: string;
  @ApiProperty({ format: 'date' }) from: string;
  @ApiProperty({ format: 'date' }) to: string;
  @ApiProperty({ type: [DimensionColumnResponse] }) columns: DimensionColumnResponse[];
  @ApiProperty({ type: IncomeStatementResponse, description: 'Lines without a value of the Dimension' }) unassigned: IncomeStatementResponse;
}

export class JournalRowResponse {
  @ApiProperty({ format: 'uuid' }) entryId: string;
  @ApiProperty({ format: 'date' }) entryDate: string;
  @ApiProperty() memo: string;
  @ApiProperty({ enum: ['active', 'reversed'] }) status: string;
  @nullableUuid() bookId: string | null;
  @ApiProperty({ format: 'uuid' }) lineId: string;
  @ApiProperty({ enum: ['debit', 'credit'] }) side: string;
  @amount() amount: number;
  @ApiProperty({ format: 'uuid' }) accountId: string;
  @ApiProperty() accountCode: string;
  @ApiProperty() accountName: string;
  @nullableUuid() partnerId: string | null;
  @ApiProperty({ type: String, nullable: true }) partnerName: string | null;
  @ApiProperty({ type: String, nullable: true }) description: string | null;
}

export class JournalResponse {
  @ApiProperty({ type: [JournalRowResponse] }) rows: JournalRowResponse[];
  @ApiProperty({ type: String, nullable: true, description: 'date~entryId~lineId' }) nextCursor: string | null;
}

export class EightColumnsResponse {
  @amount() debit: number;
  @amount() credit: number;
  @amount() debtorBalance: number;
  @amount() creditorBalance: number;
  @amount() asset: number;
  @amount() liability: number;
  @amount() loss: number;
  @amount() profit: number;
}

export class EightColumnRowResponse extends EightColumnsResponse {
  @nullableUuid('null on the prior-periods and rounding rows') accountId: string | null;
  @ApiProperty({ type: String, nullable: true }) code: string | null;
  @ApiProperty() name: string;
  @ApiProperty() type: string;
}

export class EightColumnResultResponse {
  @ApiProperty({ enum: ['profit', 'loss'] }) kind: 'profit' | 'loss';
  @amount() amount: number;
}

export class EightColumnBalanceResponse extends ReportHeader {
  @ApiProperty({ format: 'date' }) exerciseStart: string;
  @ApiProperty({ format: 'date' }) cutoffDate: string;
  @ApiProperty({ type: [EightColumnRowResponse] }) rows: EightColumnRowResponse[];
  @ApiProperty({ type: EightColumnsResponse }) subtotals: EightColumnsResponse;
  @ApiProperty({ type: EightColumnResultResponse }) result: EightColumnResultResponse;
  @ApiProperty({ type: EightColumnsResponse }) totals: EightColumnsResponse;
}

class LedgerLineBase {
  @ApiProperty({ format: 'uuid' }) lineId: string;
  @ApiProperty({ format: 'uuid' }) entryId: string;
  @ApiProperty({ format: 'date' }) entryDate: string;
  @ApiProperty() memo: string;
  @ApiProperty({ enum: ['debit', 'credit'] }) side: string;
  @amount() amount: number;
}

export class GeneralLedgerLineResponse extends LedgerLineBase {
  @nullableUuid() partnerId: string | null;
  @ApiProperty({ type: String, nullable: true }) description: string | null;
  @amount('From inception through this line, debit-positive') runningBalance: number;
}

export class GeneralLedgerResponse {
  @ApiProperty({ type: [GeneralLedgerLineResponse] }) lines: GeneralLedgerLineResponse[];
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) nextCursor: string | null;
  @amount('Balance before from (0 without from)') openingBalance: number;
  @amount('Balance through to') closingBalance: number;
  @ApiProperty({ type: 'integer' }) lineCount: number;
}

export class PartnerLedgerLineResponse extends LedgerLineBase {
  @amount('Debit-positive') runningBalance: number;
  @amount('As of now') openAmount: number;
}

export class PartnerLedgerGroupResponse {
  @nullableUuid('null: the lines without a partner') partnerId: string | null;
  @ApiProperty({ type: String, nullable: true }) partnerName: string | null;
  @amount() openingBalance: number;
  @amount() closingBalance: number;
  @ApiProperty({ type: [PartnerLedgerLineResponse] }) lines: PartnerLedgerLineResponse[];
}

export class PartnerLedgerResponse {
  @ApiProperty({ format: 'uuid' }) accountId: string;
  @ApiProperty({ format: 'date' }) from: string;
  @ApiProperty({ format: 'date' }) to: string;
  @ApiProperty({ example: 'CLP' }) currency: string;
  @nullableUuid() bookId: string | null;
  @ApiProperty({ type: [PartnerLedgerGroupResponse] }) partners: PartnerLedgerGroupResponse[];
}

export class GeneralLedgerBookAccountResponse {
  @ApiProperty({ format: 'uuid' }) accountId: string;
  @ApiProperty() code: string;
  @ApiProperty() name: string;
  @amount('Balance before from, debit-positive (D55)') openingBalance: number;
  @ApiProperty({ type: [GeneralLedgerLineResponse], description: 'D55 lines of the range, running balance from inception' }) lines: GeneralLedgerLineResponse[];
  @amount('Balance through to, debit-positive') closingBalance: number;
}

/** D93: the Libro Mayor. */
export class GeneralLedgerBookResponse {
  @ApiProperty({ format: 'date' }) from: string;
  @ApiProperty({ format: 'date' }) to: string;
  @ApiProperty({ example: 'CLP' }) currency: string;
  @nullableUuid() bookId: string | null;
  @ApiProperty({ type: [GeneralLedgerBookAccountResponse], description: 'Every account with a live line in the range, by code' }) accounts: GeneralLedgerBookAccountResponse[];
}
