import { Injectable } from '@nestjs/common';
import { Propagation, Transactional, TransactionHost } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { Clock } from '../../../platform/clock/clock';
import { ApiKeysService } from '../../identity';
import { AgentRepository } from '../domain/agent-ports';
import { declaredActorOf, decide, Proposal, proposalNotFound, proposalNotPending, serviceUnreachable } from '../domain/conversation';
import { Caller, ConversationsService } from './conversations.service';
import { ServiceLoopback } from './gateway-ports';

/** How long the one-request key of an apply lives at most (it is revoked as soon as the write answered). */
const APPLY_KEY_TTL_MS = 5 * 60 * 1000;

function parsedBody(text: string): unknown {
  if (text === '') return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * D89: a proposal is applied by the conversation's User, as that User, through every guard of
 * the target route: the write is a real request to the service with a key of the User confined
 * to the Entity and declared actor `erwin:<conversationId>`, so its audit row carries the User
 * as `actorUserId` and the assistant as `declaredActor`. The proposal row stays locked from
 * its check to its decision, so two applies at once write once.
 */
@Injectable()
export class ProposalsService {
  constructor(
    private readonly conversations: ConversationsService,
    private readonly repository: AgentRepository,
    private readonly apiKeys: ApiKeysService,
    private readonly loopback: ServiceLoopback,
    private readonly clock: Clock,
    private readonly txHost: TransactionHost<TransactionalAdapterTypeOrm>,
  ) {}

  /** Joins the request's transaction, which holds the proposal's lock until the decision is written. */
  @Transactional()
  async apply(caller: Caller, entityId: string, conversationId: string, proposalId: string): Promise<{ proposal: Proposal; response: { status: number; body: unknown } }> {
    const proposal = await this.pending(caller, entityId, conversationId, proposalId);
    const now = this.clock.now();
    const expiresAt = new Date(now.getTime() + APPLY_KEY_TTL_MS);
    // Its own transaction: the write's request must find the key committed.
    const key = await this.txHost.withTransaction(Propagation.RequiresNew, async () => {
      const minted = await this.apiKeys.mint(caller, { name: `erwin:${conversationId} apply`, expiresAt, permissions: null, entityId });
      await this.repository.recordLease({ entityId, apiKeyId: minted.apiKey.id, userId: caller.id, conversationId, expiresAt });
      return minted;
    });
    let answer: { status: number; body: string };
    try {
      answer = await this.loopback.request({
        method: proposal.method,
        path: proposal.path,
        body: proposal.body ?? undefined,
        apiKey: key.plaintext,
        auditActor: declaredActorOf(conversationId),
      });
    } catch (error) {
      // Whether the write happened is unknown: the proposal stays pending (a second apply of a
      // create answers 409 of its resource if the first went through).
      throw serviceUnreachable({ proposalId, reason: (error as Error).message });
    } finally {
      await this.txHost.withTransaction(Propagation.RequiresNew, () => this.apiKeys.revoke(caller.id, key.apiKey.id));
    }
    const response = { status: answer.status, body: parsedBody(answer.body) };
    const decided = decide(proposal, { status: answer.status >= 200 && answer.status < 300 ? 'applied' : 'failed', response }, this.clock.now());
    await this.repository.saveDecision(decided);
    return { proposal: decided, response };
  }

  @Transactional()
  async reject(caller: Caller, entityId: string, conversationId: string, proposalId: string): Promise<Proposal> {
    const proposal = await this.pending(caller, entityId, conversationId, proposalId);
    const decided = decide(proposal, { status: 'rejected', response: null }, this.clock.now());
    await this.repository.saveDecision(decided);
    return decided;
  }

  /** The proposal, locked for the decision; 404 for another User's conversation (D89a). */
  private async pending(caller: Caller, entityId: string, conversationId: string, proposalId: string): Promise<Proposal> {
    await this.conversations.own(caller, entityId, conversationId);
    const proposal = await this.repository.lockProposal(entityId, conversationId, proposalId);
    if (!proposal) throw proposalNotFound({ proposalId });
    if (proposal.status !== 'pending') throw proposalNotPending({ proposalId, status: proposal.status });
    return proposal;
  }
}
