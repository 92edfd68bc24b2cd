import { scrubSecrets } from './scrub-secrets';

describe('scrubSecrets', () => {
  it('removes the secrets given and anything shaped like a key or token, and cuts the text', () => {
    expect(scrubSecrets('connect ECONNREFUSED 127.0.0.1:9 with my-secret-key', ['my-secret-key'])).toBe('connect ECONNREFUSED 127.0.0.1:9 with [redacted]');
    expect(scrubSecrets('failed; key=abc123 token: "xyz" Authorization=Bearer qwerty', [])).toBe('failed; key=[redacted] token: [redacted] Authorization=[redacted] [redacted]');
    expect(scrubSecrets('Bearer abc.def', [])).toBe('Bearer [redacted]');
    expect(scrubSecrets('use sk-live-4f9a8b7c6d5e4f3a2b1c now', [])).toBe('use [redacted] now');
    expect(scrubSecrets(`id ${'a1'.repeat(20)} end`, [])).toBe('id [redacted] end');
    expect(scrubSecrets('word '.repeat(200), [], 300)).toHaveLength(300);
  });
});
