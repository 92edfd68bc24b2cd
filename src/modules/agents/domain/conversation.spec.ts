import fc from 'fast-check';
import { checkProposal, decide, Proposal, storableJson, storableText, truncateText } from './conversation';

const ENTITY = '6f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f';
const OTHER = '0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d';

describe('checkProposal (D89)', () => {
  it('takes a write under the Entity, with the Entity id stored lower-case and the summary trimmed', () => {
    expect(checkProposal(ENTITY, { method: 'POST', path: `/api/entities/${ENTITY.toUpperCase()}/partners`, body: { a: 1 }, summary: ' Add ' })).toEqual({
      ok: true,
      method: 'POST',
      path: `/api/entities/${ENTITY}/partners`,
      body: { a: 1 },
      summary: 'Add',
    });
    expect(checkProposal(ENTITY, { method: 'DELETE', path: `/api/entities/${ENTITY}/partners/${OTHER}`, summary: 'x' })).toMatchObject({ ok: true, body: null });
  });

  it('counts the summary in characters (code points): 500 emoji are a summary, 501 are not', () => {
    const write = (summary: string) => checkProposal(ENTITY, { method: 'DELETE', path: `/api/entities/${ENTITY}/partners/${OTHER}`, summary });
    expect(write('😀'.repeat(500)).ok).toBe(true);
    expect(write('😀'.repeat(501)).ok).toBe(false);
  });

  it.each([
    ['GET', `/api/entities/${ENTITY}/partners`],
    ['POST', `/api/entities/${OTHER}/partners`],
    ['POST', `/api/entities/${ENTITY}`],
    ['POST', `/api/entities/${ENTITY}/`],
    ['POST', `/api/entities/${ENTITY}/agents/conversations`],
    ['POST', `/api/entities/${ENTITY}/AGENTS/conversations`],
    ['POST', `/api/entities/${ENTITY}/partners/../../${OTHER}/partners`],
    ['POST', `/api/entities/${ENTITY}/%2e%2e/x`],
    ['POST', `/api/entities/${ENTITY}/partners?x=1`],
    ['POST', `/api/entities/${ENTITY}/partners#x`],
    ['POST', `//evil.example/api/entities/${ENTITY}/partners`],
    ['POST', `/api/onboarding/users`],
    ['POST', `api/entities/${ENTITY}/partners`],
  ])('refuses %s %s', (method, path) => {
    expect(checkProposal(ENTITY, { method, path, summary: 's' }).ok).toBe(false);
  });

  it('never accepts a path that a URL parser would take outside the Entity or into its agents routes', () => {
    const segment = fc.oneof(fc.constantFrom('..', '.', 'agents', '%2e%2e', '', 'partners', ENTITY, OTHER, '?q', '#f', 'a b', '\\'), fc.string({ maxLength: 8 }));
    fc.assert(
      fc.property(fc.array(segment, { maxLength: 6 }), fc.boolean(), (segments, upper) => {
        const path = `/api/entities/${upper ? ENTITY.toUpperCase() : ENTITY}/${segments.join('/')}`;
        const checked = checkProposal(ENTITY, { method: 'POST', path, body: {}, summary: 's' });
        if (!checked.ok) return;
        const resolved = new URL(checked.path, 'http://service.test').pathname;
        const prefix = `/api/entities/${ENTITY}/`;
        expect(resolved.startsWith(prefix)).toBe(true);
        expect(resolved.slice(prefix.length).toLowerCase().startsWith('agents')).toBe(false);
        expect(resolved).toBe(checked.path);
      }),
      { numRuns: 500 },
    );
  });
});

describe('storable text (model output PostgreSQL must hold)', () => {
  it('turns lone surrogates and NUL into U+FFFD, keeps pairs, and bounds the depth of a body', () => {
    expect(storableText('a\u0000b\uD800c\uDC00d\uD83D\uDE00')).toBe('a\uFFFDb\uFFFDc\uFFFDd\uD83D\uDE00');
    expect(storableJson({ 'k\uD800': ['v\u0000', 1, null, { x: true }] })).toEqual({ 'k\uFFFD': ['v\uFFFD', 1, null, { x: true }] });
    let deep: unknown = 1;
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(storableJson(deep)).toBeUndefined();
    expect(checkProposal(ENTITY, { method: 'POST', path: `/api/entities/${ENTITY}/partners`, body: { deep }, summary: 's' })).toEqual({ ok: false, reason: 'body must nest at most 32 levels deep' });
  });
});

describe('decide', () => {
  const proposal: Proposal = {
    entityId: ENTITY,
    conversationId: OTHER,
    id: ENTITY,
    method: 'POST',
    path: '/x',
    body: null,
    summary: 's',
    status: 'pending',
    response: null,
    createdAt: new Date(0),
    decidedAt: null,
  };
  it('decides a pending proposal once', () => {
    const decided = decide(proposal, { status: 'rejected', response: null }, new Date(5));
    expect(decided).toMatchObject({ status: 'rejected', decidedAt: new Date(5) });
    expect(() => decide(decided, { status: 'applied', response: null }, new Date(6))).toThrow(expect.objectContaining({ code: 'AGENT_PROPOSAL_NOT_PENDING_ERROR' }));
  });
});

describe('truncateText', () => {
  it('keeps a text of at most the bound and cuts a longer one to exactly the bound, saying so', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300, unit: 'binary' }), fc.integer({ min: 60, max: 200 }), (text, max) => {
        const cut = truncateText(text, max);
        if ([...text].length <= max) expect(cut).toBe(text);
        else {
          expect([...cut].length).toBe(max);
          expect(cut).toMatch(/\[truncated: \d+ more characters\]$/);
          expect(text.startsWith(cut.slice(0, cut.lastIndexOf('\n[truncated')))).toBe(true);
        }
      }),
    );
  });

  it('counts characters past U+FFFF as one and never cuts a pair in half', () => {
    const text = '😀'.repeat(100);
    expect(truncateText(text, 100)).toBe(text);
    const cut = truncateText('😀'.repeat(150), 100);
    expect([...cut].length).toBe(100);
    expect(cut).toMatch(/^(😀)+\n\[truncated: 50 more characters\]$/u);
  });
});
