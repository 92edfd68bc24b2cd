/**
 * D2b: "5 MB" is 5,242,880 bytes (binary megabytes, as the attachments' 25 MB is 26,214,400)
 * wherever a limit says MB: the DTE, bank-statement and RCV imports take a file up to it,
 * inclusive; one byte more is 413 PAYLOAD_TOO_LARGE_ERROR.
 */
export const IMPORT_MAX_BYTES = 5 * 1024 * 1024;
/** How the limit is said in messages and the OpenAPI document. */
export const IMPORT_MAX_TEXT = '5 MB (5,242,880 bytes)';
