import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { isUniqueViolation } from '../../../../platform/database/pg-errors';
import { AgentRepository } from '../../domain/agent-ports';
import type { ApplyClaim, Conversation, Message, Proposal } from '../../domain/conversation';
import { AgentProposalRecord } from './agent.records';
import { entityFactsSql } from '../../../entities';

/** The primary key (entity_id, id) of agent_messages (migration AgentGateway). */
const MESSAGES_PRIMARY_KEY = 'PK_4336ffc8d32977cec8f5870f717';
const CONVERSATION_COLUMNS = 'entity_id, id, user_id, title, model, created_at, updated_at';

interface ConversationRow {
  entity_id: string;
  id: string;
  user_id: string;
  title: string | null;
  model: string | null;
  created_at: Date;
  updated_at: Date;
}

interface MessageRow {
  entity_id: string;
  conversation_id: string;
  id: string;
  role: Message['role'];
  content: string | null;
  tool_calls: Message['toolCalls'];
  tool_call_id: string | null;
  created_at: Date;
}

const toConversation = (row: ConversationRow): Conversation => ({
  entityId: row.entity_id,
  id: row.id,
  userId: row.user_id,
  title: row.title,
  model: row.model,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});
const toProposal = ({ conversation: _c, applyingKeyId: _k, applyingSince: _s, ...proposal }: AgentProposalRecord): Proposal => proposal;

@Injectable()
export class TypeOrmAgentRepository extends AgentRepository {
  constructor(private readonly txHost: TransactionHost<TransactionalAdapterTypeOrm>) {
    super();
  }

  private get tx() {
    return this.txHost.tx;
  }

  async insertConversation(conversation: Conversation): Promise<'inserted' | 'id_taken'> {
    const inserted: unknown[] = await this.tx.query(
      `INSERT INTO agent_conversations (entity_id, id, user_id, title, model, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (entity_id, id) DO NOTHING RETURNING id`,
      [conversation.entityId, conversation.id, conversation.userId, conversation.title, conversation.model, conversation.createdAt, conversation.updatedAt],
    );
    return inserted.length === 1 ? 'inserted' : 'id_taken';
  }

  async findConversation(entityId: string, conversationId: string): Promise<Conversation | null> {
    const [row] = rowsOf(await this.tx.query(`SELECT ${CONVERSATION_COLUMNS} FROM agent_conversations WHERE entity_id = $1 AND id = $2`, [entityId, conversationId]));
    return row ? toConversation(row as ConversationRow) : null;
  }

  async listConversations(entityId: string, userId: string): Promise<Conversation[]> {
    const rows = rowsOf(
      await this.tx.query(`SELECT ${CONVERSATION_COLUMNS} FROM agent_conversations WHERE entity_id = $1 AND user_id = $2 ORDER BY updated_at DESC, id DESC`, [entityId, userId]),
    );
    return rows.map((row) => toConversation(row as ConversationRow));
  }

  async messages(entityId: string, conversationId: string): Promise<Message[]> {
    const rows = rowsOf(
      await this.tx.query(
        `SELECT entity_id, conversation_id, id, role, content, tool_calls, tool_call_id, created_at FROM agent_messages
          WHERE entity_id = $1 AND conversation_id = $2 ORDER BY seq`,
        [entityId, conversationId],
      ),
    ) as MessageRow[];
    return rows.map((row) => ({
      entityId: row.entity_id,
      conversationId: row.conversation_id,
      id: row.id,
      role: row.role,
      content: row.content,
      toolCalls: row.tool_calls,
      toolCallId: row.tool_call_id,
      createdAt: row.created_at,
    }));
  }

  async proposals(entityId: string, conversationId: string): Promise<Proposal[]> {
    const records = await this.tx.getRepository(AgentProposalRecord).find({ where: { entityId, conversationId }, order: { createdAt: 'ASC', id: 'ASC' } });
    return records.map(toProposal);
  }

  async claimTurn(
    turn: { entityId: string; conversationId: string; messageId: string; userId: string },
    now: Date,
    staleBefore: Date,
  ): Promise<{ claimed: boolean; expiredLeaseKeyIds: string[]; entity: { name: string; currency: string } }> {
    const [row] = rowsOf(
      await this.tx.query(
        `WITH claimed AS (
           UPDATE agent_conversations SET turn_message_id = $3, turn_started_at = $5
            WHERE entity_id = $1 AND id = $2 AND (turn_message_id IS NULL OR turn_started_at < $6) RETURNING id
         ), expired AS (
           DELETE FROM agent_lease_keys WHERE entity_id = $1 AND user_id = $4 AND expires_at <= $5 RETURNING api_key_id
         )
         SELECT (SELECT count(*) FROM claimed)::int AS claimed, coalesce((SELECT array_agg(api_key_id) FROM expired), '{}') AS expired,
                e.name AS entity_name, e.currency AS entity_currency
           FROM ${entityFactsSql('$1')} e`,
        [turn.entityId, turn.conversationId, turn.messageId, turn.userId, now, staleBefore],
      ),
    ) as Array<{ claimed: number; expired: string[]; entity_name: string; entity_currency: string }>;
    // The Entity's name and currency (the system message's) come with the claim: no round trip of their own.
    return { claimed: row.claimed === 1, expiredLeaseKeyIds: row.expired, entity: { name: row.entity_name, currency: row.entity_currency } };
  }

  async releaseTurn(entityId: string, conversationId: string, messageId: string): Promise<void> {
    await this.tx.query('UPDATE agent_conversations SET turn_message_id = NULL, turn_started_at = NULL WHERE entity_id = $1 AND id = $2 AND turn_message_id = $3', [
      entityId,
      conversationId,
      messageId,
    ]);
  }

  async appendMessages(entityId: string, conversationId: string, messages: Message[], now: Date, endingTurnOf?: string): Promise<'appended' | 'id_taken'> {
    try {
      await this.insertMessages(entityId, conversationId, messages, now, endingTurnOf);
      return 'appended';
    } catch (error) {
      if (isUniqueViolation(error, MESSAGES_PRIMARY_KEY)) return 'id_taken';
      throw error;
    }
  }

  private async insertMessages(entityId: string, conversationId: string, messages: Message[], now: Date, endingTurnOf?: string): Promise<void> {
    const values: unknown[] = [entityId, conversationId, now, endingTurnOf ?? null];
    const rows = messages.map((message, index) => {
      values.push(message.id, message.role, message.content, message.toolCalls === null ? null : JSON.stringify(message.toolCalls), message.toolCallId, message.createdAt);
      const p = 4 + index * 6;
      return `($1::uuid, $${p + 1}::uuid, $2::uuid, base.seq + ${index + 1}, $${p + 2}, $${p + 3}, $${p + 4}::jsonb, $${p + 5}, $${p + 6}::timestamptz)`;
    });
    // D87a: each stored message sets the conversation's updatedAt (never back in time).
    const touch = `UPDATE agent_conversations
          SET updated_at = greatest(updated_at, $3::timestamptz),
              turn_message_id = CASE WHEN turn_message_id = $4::uuid THEN NULL ELSE turn_message_id END,
              turn_started_at = CASE WHEN turn_message_id = $4::uuid THEN NULL ELSE turn_started_at END
        WHERE entity_id = $1 AND id = $2`;
    if (rows.length === 0) {
      await this.tx.query(touch, values);
      return;
    }
    await this.tx.query(
      `WITH base AS (SELECT coalesce(max(seq), 0) AS seq FROM agent_messages WHERE entity_id = $1 AND conversation_id = $2),
       inserted AS (
         INSERT INTO agent_messages (entity_id, id, conversation_id, seq, role, content, tool_calls, tool_call_id, created_at)
         SELECT v.* FROM base, LATERAL (VALUES ${rows.join(', ')}) AS v
       )
       ${touch}`,
      values,
    );
  }

  async insertProposals(proposals: Proposal[]): Promise<void> {
    if (proposals.length === 0) return;
    const values: unknown[] = [];
    const rows = proposals.map((p) => {
      values.push(p.entityId, p.id, p.conversationId, p.method, p.path, p.body === null ? null : JSON.stringify(p.body), p.summary, p.status, p.createdAt);
      const n = values.length - 9;
      return `($${n + 1}::uuid, $${n + 2}::uuid, $${n + 3}::uuid, $${n + 4}, $${n + 5}, $${n + 6}::jsonb, $${n + 7}, $${n + 8}, $${n + 9}::timestamptz)`;
    });
    await this.tx.query(
      `INSERT INTO agent_proposals (entity_id, id, conversation_id, method, path, body, summary, status, created_at) VALUES ${rows.join(', ')}`,
      values,
    );
  }

  async lockProposal(entityId: string, conversationId: string, proposalId: string): Promise<{ proposal: Proposal; claim: ApplyClaim | null } | null> {
    const record = await this.tx.getRepository(AgentProposalRecord).findOne({ where: { entityId, conversationId, id: proposalId }, lock: { mode: 'pessimistic_write' } });
    if (!record) return null;
    const claim = record.applyingKeyId && record.applyingSince ? { keyId: record.applyingKeyId, since: record.applyingSince } : null;
    return { proposal: toProposal(record), claim };
  }

  async claimApply(entityId: string, proposalId: string, claim: ApplyClaim): Promise<void> {
    await this.tx.query(`UPDATE agent_proposals SET applying_key_id = $3, applying_since = $4 WHERE entity_id = $1 AND id = $2 AND status = 'pending'`, [
      entityId,
      proposalId,
      claim.keyId,
      claim.since,
    ]);
  }

  async releaseApply(entityId: string, proposalId: string, keyId: string): Promise<void> {
    await this.tx.query('UPDATE agent_proposals SET applying_key_id = NULL, applying_since = NULL WHERE entity_id = $1 AND id = $2 AND applying_key_id = $3', [entityId, proposalId, keyId]);
  }

  async saveDecision(proposal: Proposal, claimedBy?: string): Promise<boolean> {
    const result = await this.tx.query(
      `UPDATE agent_proposals SET status = $3, response = $4::jsonb, decided_at = $5, applying_key_id = NULL, applying_since = NULL
        WHERE entity_id = $1 AND id = $2 AND status = 'pending' AND applying_key_id IS NOT DISTINCT FROM $6::uuid RETURNING id`,
      [proposal.entityId, proposal.id, proposal.status, proposal.response === null ? null : JSON.stringify(proposal.response), proposal.decidedAt, claimedBy ?? null],
    );
    if (rowsOf(result).length === 0) return false;
    await this.touch(proposal.entityId, proposal.conversationId, proposal.decidedAt ?? new Date());
    return true;
  }

  async recordLease(lease: { entityId: string; apiKeyId: string; userId: string; conversationId: string; expiresAt: Date }): Promise<void> {
    await this.tx.query('INSERT INTO agent_lease_keys (entity_id, api_key_id, user_id, conversation_id, expires_at) VALUES ($1, $2, $3, $4, $5)', [
      lease.entityId,
      lease.apiKeyId,
      lease.userId,
      lease.conversationId,
      lease.expiresAt,
    ]);
  }

  /** D87a: each stored message and each decision sets the conversation's updatedAt (never back in time). */
  private async touch(entityId: string, conversationId: string, now: Date): Promise<void> {
    await this.tx.query('UPDATE agent_conversations SET updated_at = greatest(updated_at, $3) WHERE entity_id = $1 AND id = $2', [entityId, conversationId, now]);
  }
}

/** TypeORM's query() answers UPDATE and DELETE ... RETURNING as [rows, affected]. */
function rowsOf(result: unknown): unknown[] {
  if (Array.isArray(result) && result.length === 2 && Array.isArray(result[0]) && typeof result[1] === 'number') return result[0] as unknown[];
  return result as unknown[];
}
