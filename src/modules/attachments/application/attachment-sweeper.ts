import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { TransactionHost } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { AuditRecorder } from '../../../platform/audit/audit-recorder';
import { Clock } from '../../../platform/clock/clock';
import type { RuntimeConfig } from '../../../platform/config/app-config';
import { PeriodicRounds } from '../../../platform/jobs/periodic-rounds';
import { ObjectStore } from '../../../platform/object-store/object-store';
import { STRAY_UPLOAD_SECONDS, UPLOAD_KEY_PREFIX, uploadKeyOf } from '../domain/attachment';
import { AttachmentRepository } from '../domain/attachment-repository';
import type { Attachment } from '../domain/attachment';

/** Any constant: every instance takes the same lock, so one sweeps at a time. */
export const SWEEP_LOCK_KEY = 7_021_021;
const BATCH = 100;
const STRAY_PAGE = 1000;

export type SweepResult = { status: 'busy' } | { status: 'swept'; removed: number; failed: number };

/**
 * Removes upload slots never confirmed once their slot expired (D70's 15 minutes of the URL and
 * the grace to confirm), and attachments of deleted records: the object first, then the row, each
 * with an audit row of the system (no actor, credential null, method, path and request id null). Runs every
 * ATTACHMENT_SWEEP_INTERVAL_SECONDS on each instance; a PostgreSQL advisory lock lets one
 * instance sweep at a time (the others skip that round).
 */
@Injectable()
export class AttachmentSweeper implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(AttachmentSweeper.name);
  private readonly rounds = new PeriodicRounds(
    () =>
      this.sweep()
        // Only the instance that holds the sweep's lock sweeps the stray uploads (busy: another does).
        .then((outcome) => (outcome.status === 'swept' ? this.sweepStrayUploads() : 0)),
    (error) => this.logger.warn(`Attachment sweep failed: ${String(error)}`),
  );

  constructor(
    private readonly txHost: TransactionHost<TransactionalAdapterTypeOrm>,
    private readonly attachments: AttachmentRepository,
    private readonly store: ObjectStore,
    private readonly recorder: AuditRecorder,
    private readonly clock: Clock,
    private readonly config: ConfigService<RuntimeConfig, true>,
  ) {}

  onApplicationBootstrap(): void {
    this.rounds.start(this.config.get('attachmentSweepIntervalSeconds', { infer: true }));
  }

  onApplicationShutdown(): Promise<void> {
    return this.rounds.stop();
  }

  /** One round: batches until nothing is due, or 'busy' when another instance is sweeping. */
  async sweep(): Promise<SweepResult> {
    let removed = 0;
    let failed = 0;
    for (;;) {
      const round = await this.txHost.withTransaction(async () => {
        const [{ locked }] = (await this.txHost.tx.query('SELECT pg_try_advisory_xact_lock($1) AS locked', [SWEEP_LOCK_KEY])) as Array<{ locked: boolean }>;
        if (!locked) return null;
        const now = this.clock.now();
        // Entity by Entity (D94: each statement on one Entity's shard), up to BATCH slots a round.
        const due: Attachment[] = [];
        for (const entityId of await this.attachments.entitiesWithSweepable(now, BATCH)) {
          if (due.length >= BATCH) break;
          due.push(...(await this.attachments.lockSweepable(entityId, now, BATCH - due.length)));
        }
        let done = 0;
        for (const attachment of due) {
          try {
            // Issue 33: the upload (a slot never confirmed) and any copy made by a confirmation
            // that did not end (a slot), or the attachment's object (discarded).
            await this.store.delete(uploadKeyOf(attachment.objectKey));
            await this.store.delete(attachment.objectKey);
          } catch (error) {
            failed++;
            this.logger.warn(`Attachment ${attachment.id}: object not removed (${String(error)}); kept for the next sweep`);
            continue;
          }
          await this.attachments.delete(attachment.entityId, attachment.id);
          await this.recorder.record({
            entityId: attachment.entityId,
            organizationId: null,
            actorUserId: null,
            declaredActor: 'system:attachment-sweeper',
            credential: null,
            apiKeyId: null,
            // A write of no HTTP request: no method, path or request id (as SystemWrites records one).
            method: null,
            path: null,
            action: attachment.state === 'pending' ? 'attachment.upload_expired' : 'attachment.discarded_removed',
            resourceType: 'attachment',
            resourceId: attachment.id,
            requestId: null,
            reason: null,
          });
          done++;
        }
        return { due: due.length, done };
      });
      if (round === null) return removed + failed === 0 ? { status: 'busy' } : { status: 'swept', removed, failed };
      removed += round.done;
      if (round.due < BATCH || round.done === 0) return { status: 'swept', removed, failed };
    }
  }

  /**
   * Issue 33: objects under `uploads/` (or `prefix` within it) written more than
   * STRAY_UPLOAD_SECONDS before now belong to no slot that can still be confirmed: a PUT replayed
   * with an upload URL after its confirmation or its deletion, or an upload of a slot swept
   * meanwhile. Removed; no row, no audit (nothing of the books changes). No transaction: the
   * store alone is asked. Returns how many were removed.
   */
  async sweepStrayUploads(prefix: string = UPLOAD_KEY_PREFIX): Promise<number> {
    if (!prefix.startsWith(UPLOAD_KEY_PREFIX)) throw new Error(`stray uploads live under ${UPLOAD_KEY_PREFIX}`);
    const before = this.clock.now().getTime() - STRAY_UPLOAD_SECONDS * 1000;
    let removed = 0;
    let startAfter: string | undefined;
    for (;;) {
      const page = await this.store.list(prefix, { startAfter, limit: STRAY_PAGE });
      for (const object of page) {
        if (object.lastModified.getTime() > before) continue;
        try {
          await this.store.delete(object.key);
          removed++;
        } catch (error) {
          this.logger.warn(`Stray upload ${object.key}: not removed (${String(error)}); kept for the next sweep`);
        }
      }
      if (page.length < STRAY_PAGE) return removed;
      startAfter = page[page.length - 1].key;
    }
  }
}
