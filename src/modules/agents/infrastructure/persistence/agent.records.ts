import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, Unique } from 'typeorm';

/** D87: a conversation of one staff User about one Entity (D40: keyed by its Entity). */
@Entity('agent_conversations')
@Index('agent_conversations_user_idx', ['entityId', 'userId', 'updatedAt', 'id'])
export class AgentConversationRecord {
  @PrimaryColumn('uuid')
  entityId: string;

  @PrimaryColumn('uuid')
  id: string;

  @ManyToOne('EntityRecord', { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'entity_id', foreignKeyConstraintName: 'agent_conversations_entity_fk' })
  entity?: object;

  @Column('uuid')
  userId: string;

  @ManyToOne('UserRecord', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'agent_conversations_user_fk' })
  user?: object;

  @Column('text', { nullable: true })
  title: string | null;

  @Column('text', { nullable: true })
  model: string | null;

  /** The user message whose turn is running (one at a time), and since when. */
  @Column('uuid', { nullable: true })
  turnMessageId: string | null;

  @Column('timestamptz', { nullable: true })
  turnStartedAt: Date | null;

  @Column('timestamptz')
  createdAt: Date;

  @Column('timestamptz')
  updatedAt: Date;
}

/** D87: the messages of a conversation, in the order `seq`. */
@Entity('agent_messages')
@Unique('agent_messages_seq_key', ['entityId', 'conversationId', 'seq'])
@Check('agent_messages_role_check', `"role" IN ('user', 'assistant', 'tool')`)
export class AgentMessageRecord {
  @PrimaryColumn('uuid')
  entityId: string;

  @PrimaryColumn('uuid')
  id: string;

  @Column('uuid')
  conversationId: string;

  @ManyToOne(() => AgentConversationRecord, { onDelete: 'CASCADE' })
  @JoinColumn([
    { name: 'entity_id', referencedColumnName: 'entityId' },
    { name: 'conversation_id', referencedColumnName: 'id' },
  ])
  conversation?: AgentConversationRecord;

  @Column('integer')
  seq: number;

  @Column('text')
  role: 'user' | 'assistant' | 'tool';

  @Column('text', { nullable: true })
  content: string | null;

  @Column('jsonb', { nullable: true })
  toolCalls: Array<{ id: string; name: string; arguments: string }> | null;

  @Column('text', { nullable: true })
  toolCallId: string | null;

  @Column('timestamptz')
  createdAt: Date;
}

/** D89: writes the assistant proposed, and how the User decided. */
@Entity('agent_proposals')
@Index('agent_proposals_conversation_idx', ['entityId', 'conversationId', 'createdAt', 'id'])
@Check('agent_proposals_method_check', `"method" IN ('POST', 'PUT', 'PATCH', 'DELETE')`)
@Check('agent_proposals_status_check', `"status" IN ('pending', 'applied', 'failed', 'rejected')`)
// Stop 17 review: an apply in flight claims a pending proposal (both columns set, committed before the write is sent).
@Check('agent_proposals_applying_check', `("applying_key_id" IS NULL) = ("applying_since" IS NULL) AND ("applying_key_id" IS NULL OR "status" = 'pending')`)
export class AgentProposalRecord {
  @PrimaryColumn('uuid')
  entityId: string;

  @PrimaryColumn('uuid')
  id: string;

  @Column('uuid')
  conversationId: string;

  @ManyToOne(() => AgentConversationRecord, { onDelete: 'CASCADE' })
  @JoinColumn([
    { name: 'entity_id', referencedColumnName: 'entityId' },
    { name: 'conversation_id', referencedColumnName: 'id' },
  ])
  conversation?: AgentConversationRecord;

  @Column('text')
  method: 'POST' | 'PUT' | 'PATCH' | 'DELETE';

  @Column('text')
  path: string;

  @Column('jsonb', { nullable: true })
  body: unknown;

  @Column('text')
  summary: string;

  @Column('text')
  status: 'pending' | 'applied' | 'failed' | 'rejected';

  @Column('jsonb', { nullable: true })
  response: { status: number; body: unknown } | null;

  @Column('timestamptz')
  createdAt: Date;

  @Column('timestamptz', { nullable: true })
  decidedAt: Date | null;

  /**
   * The apply in flight (stop 17 review): the one-write key it minted and when it claimed the
   * proposal. Not part of the API (the proposal reads `pending` meanwhile); cleared with the
   * decision or when the write could not be sent.
   */
  @Column('uuid', { nullable: true })
  applyingKeyId: string | null;

  @Column('timestamptz', { nullable: true })
  applyingSince: Date | null;
}

/** D88: the API keys the gateway minted for a User (leases, apply keys), removed once expired. */
@Entity('agent_lease_keys')
@Index('agent_lease_keys_user_idx', ['userId', 'expiresAt'])
export class AgentLeaseKeyRecord {
  @PrimaryColumn('uuid')
  entityId: string;

  @PrimaryColumn('uuid')
  apiKeyId: string;

  @Column('uuid')
  userId: string;

  @Column('uuid')
  conversationId: string;

  @ManyToOne(() => AgentConversationRecord, { onDelete: 'CASCADE' })
  @JoinColumn([
    { name: 'entity_id', referencedColumnName: 'entityId' },
    { name: 'conversation_id', referencedColumnName: 'id' },
  ])
  conversation?: AgentConversationRecord;

  @Column('timestamptz')
  expiresAt: Date;
}

export const AGENT_RECORDS = [AgentConversationRecord, AgentMessageRecord, AgentProposalRecord, AgentLeaseKeyRecord];
