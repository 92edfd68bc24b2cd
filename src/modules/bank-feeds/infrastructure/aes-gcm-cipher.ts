import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { CredentialCipher } from '../application/bank-provider';

/**
 * D67: AES-256-GCM with a fresh 96-bit IV per value; stored as `v1.<iv>.<tag>.<ciphertext>`
 * (base64url). A value altered at rest fails authentication instead of decrypting to garbage.
 */
export class AesGcmCipher extends CredentialCipher {
  constructor(private readonly key: Buffer) {
    super();
    if (key.length !== 32) throw new Error('CREDENTIALS_ENCRYPTION_KEY must be 32 bytes');
  }

  encrypt(plaintext: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), body.toString('base64url')].join('.');
  }

  decrypt(stored: string): string {
    const [version, iv, tag, body] = stored.split('.');
    if (version !== 'v1' || !iv || !tag || body === undefined) throw new Error('Not a stored credential');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
  }
}
