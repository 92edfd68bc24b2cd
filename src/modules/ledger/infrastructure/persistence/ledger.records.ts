import { Check, Column, Entity, Generated, Index, JoinColumn, ManyToOne, PrimaryColumn, Unique } from 'typeorm';

// Relations to another module's records name them by class name: the foreign key is declared
// (and stays in the database) without importing that module's infrastructure.

/*
 * D40: every table of Entity data leads with entity_id, which is in its primary key, in every
 * unique constraint and in the foreign keys between Entity tables, so a row can never point
 * into another Entity.
 */

const ACCOUNT_TYPE_CHECK = `IN ('asset', 'liability', 'equity', 'income', 'cost_of_goods_sold', 'operating_expense', 'other_income', 'other_expense')`;

@Entity('ledger_account_groups')
@Unique('ledger_account_groups_code_prefix_key', ['entityId', 'codePrefix'])
@Check('ledger_account_groups_type_check', `"type" ${ACCOUNT_TYPE_CHECK}`)
export class AccountGroupRecord {
  @PrimaryColumn('uuid')
  entityId: string;

  @PrimaryColumn('uuid')
  id: string;

  @ManyToOne('EntityRecord', { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'entity_id', foreignKeyConstraintName: 'ledger_account_groups_entity_fk' })
  entity?: object;

  @Column('uuid', { nullable: true })
  parentGroupId: string | null;

  @ManyToOne(() => AccountGroupRecord, { onDelete: 'RESTRICT' })
  @JoinColumn([
    { name: 'entity_id', referencedColumnName: 'entityId' },
    { name: 'parent_group_id', referencedColumnName: 'id' },
  ])
  parent?: AccountGroupRecord;

  @Column('text')
  codePrefix: string;

  @Column('text')
  name: string;

  @Column('text')
  type: string;

  @Column('timestamptz')
  createdAt: Date;

  @Column('timestamptz')
  updatedAt: Date;
}

@Entity('ledger_accounts')
@Unique('ledger_accounts_code_key', ['entityId', 'code'])
@Index('ledger_accounts_group_idx', ['entityId', 'groupId'])
@Check('ledger_accounts_type_check', `"type" ${ACCOUNT_TYPE_CHECK}`)
@Check('ledger_accounts_tracking_check', `"tracking" IN ('balance', 'open_item')`)
@Check(
  'ledger_accounts_subtype_check',
  `"subtype" IS NULL OR "subtype" IN ('fixed_asset', 'receivable', 'unbilled_receivable', 'payable', 'internal_transfer', 'migration_clearing')`,
)
export class LedgerAccountRecord {
  @PrimaryColumn('uuid')
  entityId: string;

  @PrimaryColumn('uuid')
  id: string;

  @ManyToOne('EntityRecord', { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'entity_id', foreignKeyConstraintName: 'ledger_accounts_entity_fk' })
  entity?: object;

  @Column('uuid', { nullable: true })
  groupId: string | null;

  @ManyToOne(() => AccountGroupRecord, { onDelete: 'RESTRICT' })
  @JoinColumn([
    { name: 'entity_id', referencedColumnName: 'entityId' },
    { name: 'group_id', referencedColumnName: 'id' },
  ])
  group?: AccountGroupRecord;

  @Column('text')
  code: string;

  @Column('text')
  name: string;

  @Column('text')
  type: string;

  @Column('text')
  tracking: string;

  @Column('text', { nullable: true })
  subtype: string | null;

  @Column('timestamptz')
  createdAt: Date;

  @Column('timestamptz')
  updatedAt: Date;
}

@Entity('chart_initializations')
export class ChartInitializationRecord {
  @PrimaryColumn('uuid')
  entityId: string;

  @PrimaryColumn('uuid')
  id: string;

  @ManyToOne('EntityRecord', { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'entity_id', foreignKeyConstraintName: 'chart_initializations_entity_fk' })
  entity?: object;

  @Column('text')
  templateKey: string;

  @Column('text')
  templateVersion: string;

  @Column('timestamptz')
  createdAt: Date;
}

@Entity('books')
@Unique('books_name_key', ['entityId', 'name'])
export class BookRecord {
  @PrimaryColumn('uuid')
  entityId: string;

  @PrimaryColumn('uuid')
  id: string;

  @ManyToOne('EntityRecord', { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'entity_id', foreignKeyConstraintName: 'books_entity_fk' })
  entity?: object;

  @Column('text')
  name: string;

  /** Creation order, for the list (timestamps can tie). */
  @Column('bigint')
  @Generated('increment')
  position: string;

  @Column('timestamptz')
  createdAt: Date;

  @Column('timestamptz')
  updatedAt: Date;
}

@Entity('dimensions')
@Unique('dimensions_name_key', ['entityId', 'name'])
export class DimensionRecord {
  @PrimaryColumn('uuid')
  entityId: string;

  @PrimaryColumn('uuid')
  id: string;

  @ManyToOne('EntityRecord', { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'entity_id', foreignKeyConstraintName: 'dimensions_entity_fk' })
  entity?: object;

  @Column('text')
  name: string;

  @Column('timestamptz')
  createdAt: Date;

  @Column('timestamptz')
  updatedAt: Date;
}

@Entity('dimension_values')
@Unique('dimension_values_code_key', ['entityId', 'dimensionId', 'code'])
@Unique('dimension_values_dimension_id_key', ['entityId', 'dimensionId', 'id'])
export class DimensionValueRecord {
  @PrimaryColumn('uuid')
  entityId: string;

  @PrimaryColumn('uuid')
  id: string;

  @Column('uuid')
  dimensionId: string;

  @ManyToOne(() => DimensionRecord, { onDelete: 'RESTRICT' })
  @JoinColumn([
    { name: 'entity_id', referencedColumnName: 'entityId' },
    { name: 'dimension_id', referencedColumnName: 'id' },
  ])
  dimension?: DimensionRecord;

  @Column('text')
  code: string;

  @Column('text')
  name: string;

  /** The parent is a value of the same Dimension: the foreign key includes the Dimension. */
  @Column('uuid', { nullable: true })
  parentId: string | null;

  @ManyToOne(() => DimensionValueRecord, { onDelete: 'RESTRICT' })
  @JoinColumn([
    { name: 'entity_id', referencedColumnName: 'entityId' },
    { name: 'dimension_id', referencedColumnName: 'dimensionId' },
    { name: 'parent_id', referencedColumnName: 'id' },
  ])
  parent?: DimensionValueRecord;

  @Column('timestamptz')
  createdAt: Date;

  @Column('timestamptz')
  updatedAt: Date;
}

export const LEDGER_RECORDS = [AccountGroupRecord, LedgerAccountRecord, ChartInitializationRecord, BookRecord, DimensionRecord, DimensionValueRecord];
