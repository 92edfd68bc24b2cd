import { Injectable } from '@nestjs/common';
import { randomBytes, randomInt } from 'node:crypto';
import { SecretGenerator } from '../domain/identity-ports';

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

@Injectable()
export class CryptoSecretGenerator extends SecretGenerator {
  apiKeyMaterial(): { prefix: string; secret: string } {
    const prefix = Array.from({ length: 12 }, () => ALPHANUMERIC[randomInt(ALPHANUMERIC.length)]).join('');
    return { prefix, secret: randomBytes(32).toString('base64url') };
  }

  token(): string {
    return randomBytes(32).toString('base64url');
  }
}
