import { Injectable } from '@nestjs/common';
import { Transactional, TransactionHost } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { OfferedAuditRow } from '../../../platform/audit/offered-audit-row';
import { retryTransientConflicts } from '../../../platform/audit/transient-conflicts';
import { Clock } from '../../../platform/clock/clock';
import { ApiKeysService } from '../../identity';
import { AgentRepository } from '../domain/agent-ports';
import { declaredActorOf, decide, Proposal, proposalBeingApplied, proposalNotFound, proposalNotPending, serviceUnreachable } from '../domain/conversation';
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
 * A claim older than this is taken as abandoned (the instance that made it died between the claim
 * and the decision): its key expired a minute before, so its write has either happened or never
 * will, and the loopback gives up on a request after 30 s.
 */
const APPLY_CLAIM_STALE_MS = APPLY_KEY_TTL_MS + 60 * 1000;

/**
 * D89: a proposal is applied by the conversation's User, as that User, through every guard of
 * the target route: the write is a real request to the service with a key of the User confined
 * to the Entity and declared actor `erwin:<conversationId>`, so its audit row carries the User
 * as `actorUserId` and the assistant as `declaredActor`.
 *
 * Stop 17 review: no transaction is held while the service is called (its request needs a
 * connection of the same pool: ten applies holding ten connections would wait for ever). An apply
 * is two short transactions around the call: the claim (proposal locked, still pending and not
 * claimed by a live apply; the one-write key minted; the claim written; committed), then the
 * outcome (the decision, the key revoked, the apply's audit row). Two applies at once: the
 * second finds the claim and is refused (409 AGENT_PROPOSAL_NOT_PENDING_ERROR), so the write is
 * sent once. The write not sent (the service unreachable): the claim is dropped, the proposal is
 * pending as before. A crash between the two leaves the proposal pending and claimed; after
 * APPLY_CLAIM_STALE_MS another apply or a reject may take it (whether the first write happened is
 * then in the audit trail: a row with declaredActor erwin:<conversationId>).
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
    private readonly auditRow: OfferedAuditRow,
  ) {}

  async apply(caller: Caller, entityId: string, conversationId: string, proposalId: string): Promise<{ proposal: Proposal; response: { status: number; body: unknown } }> {
    const { proposal, key } = await this.txHost.withTransaction(async () => {
      const now = this.clock.now();
      const pending = await this.pending(caller, entityId, conversationId, proposalId, now);
      const expiresAt = new Date(now.getTime() + APPLY_KEY_TTL_MS);
      const minted = await this.apiKeys.mint(caller, { name: `erwin:${conversationId} apply`, expiresAt, permissions: null, entityId });
      await this.repository.recordLease({ entityId, apiKeyId: minted.apiKey.id, userId: caller.id, conversationId, expiresAt });
      await this.repository.claimApply(entityId, proposalId, { keyId: minted.apiKey.id, since: now });
      return { proposal: pending, key: minted };
    });
    const keyId = key.apiKey.id;
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
      await this.txHost.withTransaction(async () => {
        await this.apiKeys.revoke(caller.id, keyId);
        await this.repository.releaseApply(entityId, proposalId, keyId);
      });
      throw serviceUnreachable({ proposalId, reason: (error as Error).message });
    }
    const response = { status: answer.status, body: parsedBody(answer.body) };
    const decided = decide(proposal, { status: answer.status >= 200 && answer.status < 300 ? 'applied' : 'failed', response }, this.clock.now());
    await retryTransientConflicts(() =>
      this.txHost.withTransaction(async () => {
        await this.apiKeys.revoke(caller.id, keyId);
        // Taken over as stale meanwhile (the write outlived its key by a minute): the decision is the other apply's.
        if (!(await this.repository.saveDecision(decided, keyId))) throw proposalBeingApplied({ proposalId });
        await this.auditRow.record(proposalId);
      }),
    );
    return { proposal: decided, response };
  }

  @Transactional()
  async reject(caller: Caller, entityId: string, conversationId: string, proposalId: string): Promise<Proposal> {
    const proposal = await this.pending(caller, entityId, conversationId, proposalId, this.clock.now());
    const decided = decide(proposal, { status: 'rejected', response: null }, this.clock.now());
    await this.repository.saveDecision(decided);
    return decided;
  }

  /**
   * The proposal, locked for the decision; 404 for another User's conversation (D89a); 409 when
   * decided, or claimed by an apply in flight. A stale claim (see APPLY_CLAIM_STALE_MS) is dropped.
   */
  private async pending(caller: Caller, entityId: string, conversationId: string, proposalId: string, now: Date): Promise<Proposal> {
    await this.conversations.own(caller, entityId, conversationId);
    const locked = await this.repository.lockProposal(entityId, conversationId, proposalId);
    if (!locked) throw proposalNotFound({ proposalId });
    const { proposal, claim } = locked;
    if (proposal.status !== 'pending') throw proposalNotPending({ proposalId, status: proposal.status });
    if (claim) {
      if (now.getTime() - claim.since.getTime() < APPLY_CLAIM_STALE_MS) throw proposalBeingApplied({ proposalId, status: proposal.status, applying: true });
      await this.repository.releaseApply(entityId, proposalId, claim.keyId);
    }
    return proposal;
  }
}
