/**
 * What an outside service's failure may say to the caller and the log: `message` with every
 * secret given and anything shaped like a key or token (`sk-…`, `key=…`, `Bearer …`, a run of 32
 * letters and digits) replaced by `[redacted]`, cut at `max` characters.
 */
export function scrubSecrets(message: string, secrets: Array<string | undefined | null>, max = 300): string {
  let text = message;
  for (const secret of secrets) if (secret) text = text.split(secret).join('[redacted]');
  return text
    .replace(/\b(bearer|basic)\s+[^\s,;]+/gi, '$1 [redacted]')
    .replace(/\b([\w-]*(?:key|token|secret|password|passwd|authorization|signature|credential)[\w-]*)(\s*[=:]\s*)("[^"]*"|'[^']*'|[^\s,;&]+)/gi, '$1$2[redacted]')
    .replace(/\b(sk|pk|rk|ak)[-_][A-Za-z0-9_-]{6,}/g, '[redacted]')
    .replace(/[A-Za-z0-9_+/=-]{32,}/g, '[redacted]')
    .slice(0, max);
}
