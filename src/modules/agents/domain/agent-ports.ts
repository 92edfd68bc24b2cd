import type { ApplyClaim, Conversation, Message, Proposal } from './conversation';

/** The agents module's tables (D40: every row keyed by its Entity). */
export abstract class AgentRepository {
  /** 'id_taken' when the Entity has a conversation with this id. */
  abstract insertConversation(conversation: Conversation): Promise<'inserted' | 'id_taken'>;
  abstract findConversation(entityId: string, conversationId: string): Promise<Conversation | null>;
  /** The User's conversations of the Entity, most recently updated first. */
  abstract listConversations(entityId: string, userId: string): Promise<Conversation[]>;
  /** Oldest first. */
  abstract messages(entityId: string, conversationId: string): Promise<Message[]>;
  abstract proposals(entityId: string, conversationId: string): Promise<Proposal[]>;
  /**
   * Marks the conversation as answering `messageId`, unless another turn holds it (one claimed
   * before `staleBefore` is taken as abandoned); in the same statement forgets the User's leases
   * expired at `now` and answers their key ids.
   */
  abstract claimTurn(
    turn: { entityId: string; conversationId: string; messageId: string; userId: string },
    now: Date,
    staleBefore: Date,
  ): Promise<{ claimed: boolean; expiredLeaseKeyIds: string[]; entity: { name: string; currency: string } }>;
  abstract releaseTurn(entityId: string, conversationId: string, messageId: string): Promise<void>;
  /**
   * Appends in order after the conversation's last message and sets its updatedAt, in one
   * statement; with `endingTurnOf`, also releases that message's turn. 'id_taken' when the Entity
   * has a message with one of the ids already (nothing appended; the transaction is spoilt).
   */
  abstract appendMessages(entityId: string, conversationId: string, messages: Message[], now: Date, endingTurnOf?: string): Promise<'appended' | 'id_taken'>;
  abstract insertProposals(proposals: Proposal[]): Promise<void>;
  /** The proposal, row-locked until the transaction ends, with the apply that claimed it (if any). */
  abstract lockProposal(entityId: string, conversationId: string, proposalId: string): Promise<{ proposal: Proposal; claim: ApplyClaim | null } | null>;
  /** Marks a pending proposal as being applied (its row locked by lockProposal). */
  abstract claimApply(entityId: string, proposalId: string, claim: ApplyClaim): Promise<void>;
  /** Drops the claim of this apply (if it still holds it): the proposal is pending as before. */
  abstract releaseApply(entityId: string, proposalId: string, keyId: string): Promise<void>;
  /**
   * Writes the decision of a pending proposal and sets the conversation's updatedAt (D87a), and
   * drops the claim. `claimedBy`: the apply's key, which must still hold the claim; without it,
   * no apply may hold one. False (nothing written) otherwise.
   */
  abstract saveDecision(proposal: Proposal, claimedBy?: string): Promise<boolean>;
  abstract recordLease(lease: { entityId: string; apiKeyId: string; userId: string; conversationId: string; expiresAt: Date }): Promise<void>;
}
