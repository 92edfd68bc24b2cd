/** What the store says about a stored object (HeadObject). */
export interface StoredObject {
  byteSize: number;
  contentType: string | null;
}

export interface PresignedPut {
  key: string;
  contentType: string;
  byteSize: number;
  /** When the signature is made (the service's clock). */
  signedAt: Date;
  expiresInSeconds: number;
}

export interface PresignedGet {
  key: string;
  /** Sent back as `Content-Disposition: attachment; filename=...` by the store. */
  filename: string;
  contentType: string;
  signedAt: Date;
  expiresInSeconds: number;
}

/** One object of a listing. */
export interface ListedObject {
  key: string;
  lastModified: Date;
}

/** Port to the object store holding attachments (S3 protocol). */
export abstract class ObjectStore {
  /** Resolves when the bucket answers; rejects with the reason otherwise. */
  abstract checkReachable(): Promise<void>;
  /**
   * A URL to PUT one object with. Its signature covers the content type and the length, so the
   * store refuses any other bytes (another length, another type, a changed URL).
   */
  abstract presignPut(put: PresignedPut): Promise<string>;
  /** A URL to GET one object with, answered as a download under the given file name. */
  abstract presignGet(get: PresignedGet): Promise<string>;
  /** The stored object's size and type; null when there is no object under the key. */
  abstract head(key: string): Promise<StoredObject | null>;
  /** Removes the object; no object under the key is not an error. */
  abstract delete(key: string): Promise<void>;
  /**
   * Copies the object under `fromKey` (its bytes and content type) to `toKey`, in the store
   * (issue 33: a confirmed attachment lives under a key no upload URL names).
   */
  abstract copy(fromKey: string, toKey: string): Promise<void>;
  /** The objects whose key begins with `prefix`, at most `limit` of them, in key order after `startAfter`. */
  abstract list(prefix: string, options: { startAfter?: string; limit: number }): Promise<ListedObject[]>;
}
