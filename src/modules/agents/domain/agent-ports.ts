import type { Conversation, Message, Proposal } from './conversation';

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
  /** The proposal, row-locked until the transaction ends. */
  abstract lockProposal(entityId: string, conversationId: string, proposalId: string): Promise<Proposal | null>;
  /** Writes the decision and sets the conversation's updatedAt (D87a). */
  abstract saveDecision(proposal: Proposal): Promise<void>;
  abstract recordLease(lease: { entityId: string; apiKeyId: string; userId: string; conversationId: string; expiresAt: Date }): Promise<void>;
}
