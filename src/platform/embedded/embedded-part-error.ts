/**
 * An embedded part (PostgreSQL, the S3 server, the local secrets) could not start. The service
 * prints `start-up failed: <what>; <what to do>` as one line and exits with code 1.
 */
export class EmbeddedPartError extends Error {
  constructor(
    readonly what: string,
    readonly whatToDo: string,
  ) {
    super(`${what}; ${whatToDo}`);
    this.name = 'EmbeddedPartError';
  }
}

/** The one line printed for a failed start: never a stack, never more than one line. */
export function startupFailureLine(error: unknown): string {
  const text =
    error instanceof EmbeddedPartError
      ? error.message
      : `${error instanceof Error ? error.message : String(error)}; check the configuration (README.md, "Configuration") and try again`;
  return `start-up failed: ${text.replace(/\s*\n\s*/g, ' ')}`;
}
