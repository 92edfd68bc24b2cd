import type { PostingFacts, PostingReferences } from '../domain/entry-ports';

/**
 * Posting facts read lately, per Entity and set of references, least recently used first out.
 * An entry judged against remembered facts is written only if the posting statement finds them
 * unchanged (its fingerprint guard), so a stale memory costs a second try, never a wrong posting;
 * and a refusal is only ever given on facts read afresh.
 */
export class RecentPostingFacts {
  private readonly facts = new Map<string, PostingFacts>();

  constructor(private readonly capacity = 1000) {}

  static key(entityId: string, references: PostingReferences): string {
    return `${entityId}|${references.accountIds.join(',')}|${references.partnerIds.join(',')}|${references.valueIds.join(',')}`;
  }

  recall(key: string): PostingFacts | undefined {
    const facts = this.facts.get(key);
    if (facts) {
      this.facts.delete(key);
      this.facts.set(key, facts);
    }
    return facts;
  }

  remember(key: string, facts: PostingFacts): void {
    this.facts.delete(key);
    this.facts.set(key, facts);
    if (this.facts.size > this.capacity) this.facts.delete(this.facts.keys().next().value!);
  }

  forget(key: string): void {
    this.facts.delete(key);
  }
}
