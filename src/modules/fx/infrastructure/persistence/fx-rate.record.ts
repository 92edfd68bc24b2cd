import { Check, Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * A published daily rate (D80): global reference data, the same for every Entity, so it has no
 * `entity_id` (D40 keys Entity data). One row per (source, currency, date): a sync stores what
 * is new and leaves what is stored (a published rate is final).
 */
@Entity('fx_rates')
@Index('fx_rates_source_date_idx', ['source', 'date', 'currency'])
@Check('fx_rates_rate_check', `"rate" > 0`)
@Check('fx_rates_source_check', `"source" IN ('offline', 'cmf')`)
export class FxRateRecord {
  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'fx_rates_pkey' })
  source: string;

  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'fx_rates_pkey' })
  currency: string;

  @PrimaryColumn({ type: 'date', primaryKeyConstraintName: 'fx_rates_pkey' })
  date: string;

  @Column('text')
  functionalCurrency: string;

  @Column('numeric')
  rate: string;

  @Column('timestamptz')
  storedAt: Date;
}

export const FX_RECORDS = [FxRateRecord];
