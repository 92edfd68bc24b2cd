import { ApiProperty } from '@nestjs/swagger';
import { PresentationResponse } from './reports.dto';

class CashAccountResponse {
  @ApiProperty({ format: 'uuid' }) bankAccountId: string;
  @ApiProperty() name: string;
  @ApiProperty({ enum: ['bank', 'card'] }) kind: string;
  @ApiProperty({ example: 'CLP' }) currency: string;
  @ApiProperty({ description: 'D78: the mapped ledger account over live common entries, normal-side sign, functional minor units' }) balance: number;
}

class CashPositionResponse {
  @ApiProperty({ description: 'Sum of the `bank`-kind balances (cards are not cash)' }) total: number;
  @ApiProperty({ type: [CashAccountResponse] }) accounts: CashAccountResponse[];
}

class DailyBalanceResponse {
  @ApiProperty({ format: 'date' }) date: string;
  @ApiProperty({ description: 'End-of-day sum of the `bank`-kind balances' }) balance: number;
}

class MonthlyIncomeResponse {
  @ApiProperty({ example: '2026-06' }) month: string;
  @ApiProperty({ description: 'Net credit of income and other_income accounts' }) income: number;
  @ApiProperty({ description: 'Net debit of cost_of_goods_sold, operating_expense and other_expense accounts' }) expenses: number;
  @ApiProperty({ description: 'income - expenses' }) result: number;
}

class OpenPositionResponse {
  @ApiProperty({ description: 'Open amount of the booked invoices’ open-item lines' }) open: number;
  @ApiProperty({ description: 'The part whose invoice dueDate is before today' }) overdue: number;
}

class UnbookedInvoicesResponse {
  @ApiProperty() ar: number;
  @ApiProperty() ap: number;
}

export class HomeResponse {
  @ApiProperty({ example: 'CLP', description: 'Functional currency' }) currency: string;
  @ApiProperty({ format: 'uuid', nullable: true, type: String }) bookId: string | null;
  @ApiProperty({ type: CashPositionResponse }) cashPosition: CashPositionResponse;
  @ApiProperty({ type: [DailyBalanceResponse], description: 'The 60 days ending today, oldest first' }) dailyBalances: DailyBalanceResponse[];
  @ApiProperty({ type: [MonthlyIncomeResponse], description: 'The 6 calendar months ending with the current one, oldest first' }) monthlyIncome: MonthlyIncomeResponse[];
  @ApiProperty({ type: OpenPositionResponse }) receivables: OpenPositionResponse;
  @ApiProperty({ type: OpenPositionResponse, description: 'Credit-positive' }) payables: OpenPositionResponse;
  @ApiProperty({ type: UnbookedInvoicesResponse }) unbookedInvoices: UnbookedInvoicesResponse;
  @ApiProperty({ description: 'Bank movements without a booking entry' }) unreconciledMovements: number;
}

class RevenueFiguresResponse {
  @ApiProperty({ description: 'net + exempt spread by day over the service period (issue date without one)' }) recognized: number;
  @ApiProperty({ description: 'net + exempt of AR invoices issued in the period' }) billed: number;
  @ApiProperty({ description: 'Allocations settling the receivable lines, dated by the settling entry' }) collected: number;
  @ApiProperty({ description: 'Open amount at the end of the period (at `to` for the last month and the totals)' }) outstanding: number;
}

class RevenueMonthResponse extends RevenueFiguresResponse {
  @ApiProperty({ example: '2026-02' }) month: string;
  @ApiProperty({ format: 'date', description: 'First day of the month inside the range' }) from: string;
  @ApiProperty({ format: 'date', description: 'Last day of the month inside the range' }) to: string;
}

class RevenueInvoiceResponse extends RevenueFiguresResponse {
  @ApiProperty({ format: 'uuid' }) invoiceId: string;
  @ApiProperty() documentKind: string;
  @ApiProperty() documentNumber: string;
  @ApiProperty({ format: 'uuid' }) partnerId: string;
  @ApiProperty({ format: 'date' }) issueDate: string;
  @ApiProperty({ format: 'date', description: 'Recognition period start (issue date without a service period)' }) servicePeriodStart: string;
  @ApiProperty({ format: 'date' }) servicePeriodEnd: string;
  @ApiProperty({ description: 'net + exempt in the functional (or presentation) currency, negative for a credit note' }) revenueAmount: number;
}

export class RevenueRealizationResponse {
  @ApiProperty({ format: 'date' }) from: string;
  @ApiProperty({ format: 'date' }) to: string;
  @ApiProperty({ example: 'CLP' }) currency: string;
  @ApiProperty({ format: 'uuid', nullable: true, type: String }) bookId: string | null;
  @ApiProperty({ type: PresentationResponse, nullable: true }) presentation: PresentationResponse | null;
  @ApiProperty({ type: RevenueFiguresResponse }) totals: RevenueFiguresResponse;
  @ApiProperty({ type: [RevenueMonthResponse] }) months: RevenueMonthResponse[];
  @ApiProperty({ type: [RevenueInvoiceResponse], description: 'At most invoiceLimit rows, by issueDate then invoice id (D82c)' }) invoices: RevenueInvoiceResponse[];
  @ApiProperty({ type: String, nullable: true, description: 'Continues `invoices` (query invoiceCursor); null when the list is complete' }) nextInvoiceCursor: string | null;
}
