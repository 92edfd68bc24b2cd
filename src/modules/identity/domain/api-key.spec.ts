import { ApiKey, hashSecret, parseApiKey } from './api-key';

const material = { prefix: 'AbCdEf123456', secret: 'x'.repeat(43) };
const now = new Date('2026-01-01T00:00:00Z');

function mint(overrides: Partial<{ expiresAt: Date | null; permissions: { erp: ['read'] } | null }> = {}) {
  return ApiKey.mint(
    { id: 'k', userId: 'u', name: ' bot ', permissions: null, entityId: null, expiresAt: null, ...overrides },
    material,
    now,
  );
}

describe('ApiKey', () => {
  it('shows the secret once as mea_<prefix>_<secret> and stores only its hash', () => {
    const { apiKey, plaintext } = mint();
    expect(plaintext).toBe(`mea_${material.prefix}_${material.secret}`);
    expect(JSON.stringify(apiKey.snapshot())).not.toContain(material.secret);
    expect(apiKey.snapshot().name).toBe('bot');
  });

  it('stores the SHA-256 of the secret', () => {
    expect(mint().apiKey.snapshot().secretHash).toBe(hashSecret(material.secret));
    expect(hashSecret(material.secret)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('is read-only exactly when it carries permissions', () => {
    expect(mint().apiKey.isReadOnly).toBe(false);
    expect(mint({ permissions: { erp: ['read'] } }).apiKey.isReadOnly).toBe(true);
  });

  it('parses only well-formed keys', () => {
    expect(parseApiKey(`mea_${material.prefix}_${material.secret}`)).toEqual(material);
    expect(parseApiKey('mea_short_secret')).toBeNull();
    expect(parseApiKey('')).toBeNull();
    expect(parseApiKey(`xx_${material.prefix}_${material.secret}`)).toBeNull();
  });
});
