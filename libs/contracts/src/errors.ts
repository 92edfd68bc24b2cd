/** D1: the body of every non-2xx JSON response. */
export interface ErrorEnvelope {
  requestId: string;
  statusCode: number;
  code: string;
  message: string;
  params: Record<string, unknown>;
}

/** D2: one entry of `params.errors` on a VALIDATION_ERROR. */
export interface ValidationIssue {
  path: string;
  message: string;
}
