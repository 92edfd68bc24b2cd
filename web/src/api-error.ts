import type { ErrorEnvelope } from '../../libs/contracts/src';

/** An answer of the API other than 2xx, with its D1 envelope. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly envelope: ErrorEnvelope,
  ) {
    super(envelope.message);
  }

  get code(): string {
    return this.envelope.code;
  }
}
