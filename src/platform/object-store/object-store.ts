/** Port to the object store holding attachments (S3 protocol). */
export abstract class ObjectStore {
  /** Resolves when the bucket answers; rejects with the reason otherwise. */
  abstract checkReachable(): Promise<void>;
}
