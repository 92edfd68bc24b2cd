import { Check, Column, Entity, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';

/**
 * D68: a connection of an Entity to a bank through a provider. The link token is stored only
 * encrypted (D67: AES-256-GCM, `v1.<iv>.<tag>.<ciphertext>` in base64url); no read model ever
 * selects it except the adapter call that needs it. Bank accounts fed by a connection point
 * at it with (entity_id, feed_bank_connection_id) (foreign key bank_accounts_feed_connection_fk).
 */
@Entity('bank_connections')
@Check('bank_connections_provider_check', `"provider" IN ('fintoc', 'sandbox')`)
@Check('bank_connections_status_check', `"status" IN ('active', 'login_required', 'error')`)
export class BankConnectionRecord {
  @PrimaryColumn('uuid')
  entityId: string;

  @PrimaryColumn('uuid')
  id: string;

  /** Named by class (no import of the entities module's internals). */
  @ManyToOne('EntityRecord', { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'entity_id', foreignKeyConstraintName: 'bank_connections_entity_fk' })
  entity?: object;

  @Column('text')
  provider: 'fintoc' | 'sandbox';

  @Column('text')
  institutionName: string;

  @Column('text')
  holderName: string;

  @Column('text')
  status: 'active' | 'login_required' | 'error';

  @Column('text', { nullable: true })
  lastError: string | null;

  @Column('text')
  linkTokenCiphertext: string;

  @Column('timestamptz')
  createdAt: Date;

  @Column('timestamptz')
  updatedAt: Date;
}

export const BANK_FEEDS_RECORDS = [BankConnectionRecord];
