import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { AesGcmCipher } from './aes-gcm-cipher';

describe('AesGcmCipher', () => {
  const cipher = new AesGcmCipher(randomBytes(32));

  it('decrypts what it encrypted, and the stored form never contains the plaintext', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 8 }), (token) => {
        const stored = cipher.encrypt(token);
        expect(stored).not.toContain(token);
        expect(cipher.decrypt(stored)).toBe(token);
      }),
    );
  });

  it('refuses a value altered at rest or read with another key', () => {
    const stored = cipher.encrypt('link_token_secret_value');
    const parts = stored.split('.');
    const flipped = Buffer.from(parts[3], 'base64url');
    flipped[0] ^= 1;
    expect(() => cipher.decrypt([parts[0], parts[1], parts[2], flipped.toString('base64url')].join('.'))).toThrow();
    expect(() => new AesGcmCipher(randomBytes(32)).decrypt(stored)).toThrow();
  });

  it('uses a fresh IV: the same token twice gives two stored values', () => {
    expect(cipher.encrypt('same')).not.toBe(cipher.encrypt('same'));
  });
});
