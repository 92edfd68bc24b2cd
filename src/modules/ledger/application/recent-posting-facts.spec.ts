import type { PostingFacts } from '../domain/entry-ports';
import { RecentPostingFacts } from './recent-posting-facts';

const facts = (fingerprint: string): PostingFacts => ({
  currency: 'CLP',
  ledgerLockDate: null,
  bookIds: [],
  accounts: new Map(),
  partnerIds: new Set(),
  dimensionValues: new Map(),
  fingerprint,
});

describe('RecentPostingFacts', () => {
  it('keys by Entity and every kind of reference', () => {
    const refs = { accountIds: ['a', 'b'], partnerIds: ['p'], valueIds: [] };
    expect(RecentPostingFacts.key('e', refs)).not.toBe(RecentPostingFacts.key('e2', refs));
    expect(RecentPostingFacts.key('e', refs)).not.toBe(RecentPostingFacts.key('e', { ...refs, partnerIds: [] }));
    expect(RecentPostingFacts.key('e', refs)).not.toBe(RecentPostingFacts.key('e', { accountIds: ['a'], partnerIds: ['b', 'p'], valueIds: [] }));
  });

  it('recalls what it remembers, forgets on demand and drops the least recently used beyond its capacity', () => {
    const recent = new RecentPostingFacts(2);
    recent.remember('x', facts('1'));
    recent.remember('y', facts('2'));
    expect(recent.recall('x')?.fingerprint).toBe('1');
    recent.remember('z', facts('3'));
    expect(recent.recall('y')).toBeUndefined();
    expect(recent.recall('x')?.fingerprint).toBe('1');
    recent.forget('x');
    expect(recent.recall('x')).toBeUndefined();
    expect(recent.recall('z')?.fingerprint).toBe('3');
  });
});
