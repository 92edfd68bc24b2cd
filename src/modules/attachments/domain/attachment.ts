import { errorCatalog } from '../../../../libs/shared-kernel/src';
import { hostNotFound, RecordHostKind } from '../../record-hosts';

/**
 * Every code attachments answers, with its HTTP status: the one place each is declared. The
 * compiler checks the table (D3: a *_NOT_FOUND_ERROR is 404) and that every error built here names
 * a code of it.
 */
export const ATTACHMENT_ERROR_STATUS = {
  ATTACHMENT_ALREADY_EXISTS_ERROR: 409,
  ATTACHMENT_HOST_NOT_FOUND_ERROR: 404,
  ATTACHMENT_NOT_FOUND_ERROR: 404,
  ATTACHMENT_NOT_UPLOADED_ERROR: 409,
  ATTACHMENT_UPLOAD_MISMATCH_ERROR: 409,
} as const;

export const attachmentError = errorCatalog(ATTACHMENT_ERROR_STATUS);

/** Spec, Attachments: the seven accepted content types. */
export const ATTACHMENT_CONTENT_TYPES = [
  'application/pdf',
  'image/png',
  'image/jpeg',
  'application/xml',
  'text/xml',
  'text/csv',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
] as const;
export type AttachmentContentType = (typeof ATTACHMENT_CONTENT_TYPES)[number];

/** D79: 25 MB is 26,214,400 bytes, inclusive. */
export const ATTACHMENT_MAX_BYTES = 26_214_400;
/** Longest file name taken (characters); longer is 400. */
export const ATTACHMENT_FILENAME_MAX = 255;
/** D70: the upload URL is valid 15 minutes. */
export const UPLOAD_URL_SECONDS = 15 * 60;
/**
 * An upload slot may still be confirmed this long after its URL expired (an upload that began
 * in time may end later); then the sweeper removes it with its object.
 */
export const CONFIRM_GRACE_SECONDS = 15 * 60;
/** D70: the download URL is valid 5 minutes. */
export const DOWNLOAD_URL_SECONDS = 5 * 60;

export type AttachmentState = 'pending' | 'confirmed' | 'discarded';

export interface Attachment {
  entityId: string;
  id: string;
  hostKind: RecordHostKind;
  hostId: string;
  objectKey: string;
  filename: string;
  contentType: AttachmentContentType;
  byteSize: number;
  state: AttachmentState;
  /** Until when a pending slot may be confirmed; after it the sweeper removes the slot. */
  expiresAt: Date;
  createdAt: Date;
  updatedAt: Date;
  /** Issue 33: until when a confirmation under way holds the pending slot (null: none). */
  confirmClaimedUntil?: Date | null;
}

/**
 * D70: `entities/<entityId>/<host>/<hostId>/<attachmentId>`. Only ids: the file name never enters
 * the key, so `../` or NUL in a name cannot name another object.
 */
export function objectKeyOf(entityId: string, hostKind: RecordHostKind, hostId: string, attachmentId: string): string {
  return `entities/${entityId}/${hostKind}/${hostId}/${attachmentId}`;
}

/**
 * Issue 33: the key the upload URL names, `uploads/` and the attachment's key. Confirm copies the
 * object from it to the attachment's key (objectKeyOf) and removes it, so the URL, valid 15
 * minutes, never reaches a confirmed attachment's bytes; what a replayed PUT leaves there is
 * swept (STRAY_UPLOAD_SECONDS).
 */
export const UPLOAD_KEY_PREFIX = 'uploads/';
export function uploadKeyOf(objectKey: string): string {
  return `${UPLOAD_KEY_PREFIX}${objectKey}`;
}
/**
 * An object under `uploads/` older than this belongs to no slot that can still be confirmed
 * (the URL's 15 minutes and the 15 of grace), plus 5 minutes for the store's clock: the sweeper
 * removes it.
 */
export const STRAY_UPLOAD_SECONDS = UPLOAD_URL_SECONDS + CONFIRM_GRACE_SECONDS + 5 * 60;
/** How long a confirmation holds its slot while the store copies the upload (then another may try). */
export const CONFIRM_CLAIM_SECONDS = 60;

const e = (code: keyof typeof ATTACHMENT_ERROR_STATUS, message: string) => (params: Record<string, unknown> = {}) => attachmentError(code, message, params);

export const attachmentHostNotFound = (hostKind: RecordHostKind, hostId: string) => hostNotFound(attachmentError, 'ATTACHMENT_HOST_NOT_FOUND_ERROR', hostKind, hostId);
export const attachmentNotFound = e('ATTACHMENT_NOT_FOUND_ERROR', 'No attachment with this id on this record');
export const attachmentAlreadyExists = e('ATTACHMENT_ALREADY_EXISTS_ERROR', 'This upload is already confirmed');
export const attachmentBeingConfirmed = e('ATTACHMENT_ALREADY_EXISTS_ERROR', 'This upload is being confirmed by another request');
export const attachmentNotUploaded = e('ATTACHMENT_NOT_UPLOADED_ERROR', 'No object was uploaded to the signed URL yet');
export const attachmentUploadMismatch = e('ATTACHMENT_UPLOAD_MISMATCH_ERROR', 'The stored object differs from the presigned size or content type');
