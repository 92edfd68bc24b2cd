import { applyDecorators, CanActivate, ExecutionContext, Global, Injectable, Module, UseGuards } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { Response } from 'express';
import type { RuntimeConfig } from '../config/app-config';
import { principalOf, RequestWithPrincipal } from '../auth/principal';
import { DomainErrorWithHeaders } from './error-envelope';

/** Seconds a refused heavy read is asked to wait: heavy reads take seconds, not minutes. */
const RETRY_AFTER_SECONDS = 1;

/**
 * D2a: the heavy reads running now, per User and in this instance. A slot is taken when a heavy
 * route's handler is about to run and given back when its response is finished or its client
 * went (the response's 'close').
 */
@Injectable()
export class HeavyReadSlots {
  private readonly perUser = new Map<string, number>();
  private total = 0;

  constructor(private readonly config: ConfigService<RuntimeConfig, true>) {}

  /** A release function, or which limit refused the read. */
  take(userId: string): (() => void) | 'user' | 'instance' {
    const mine = this.perUser.get(userId) ?? 0;
    if (mine >= this.config.get('heavyReadsPerUser', { infer: true })) return 'user';
    if (this.total >= this.config.get('heavyReadsTotal', { infer: true })) return 'instance';
    this.perUser.set(userId, mine + 1);
    this.total++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.total--;
      const left = (this.perUser.get(userId) ?? 1) - 1;
      if (left === 0) this.perUser.delete(userId);
      else this.perUser.set(userId, left);
    };
  }

  get running(): number {
    return this.total;
  }
}

@Injectable()
export class HeavyReadGuard implements CanActivate {
  constructor(private readonly slots: HeavyReadSlots) {}

  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<RequestWithPrincipal>();
    const response = context.switchToHttp().getResponse<Response>();
    // Heavy routes are authenticated; the guards before this one have refused anonymous calls.
    const userId = principalOf(request)?.user.id ?? `anonymous:${request.ip}`;
    const taken = this.slots.take(userId);
    if (typeof taken !== 'function') {
      throw new DomainErrorWithHeaders(
        'TOO_MANY_CONCURRENT_READS_ERROR',
        taken === 'user'
          ? 'Too many heavy reads of this User at once; retry when one has finished'
          : 'Too many heavy reads at once on this instance; retry shortly',
        { limit: taken === 'user' ? 'perUser' : 'perInstance' },
        { 'Retry-After': String(RETRY_AFTER_SECONDS) },
      );
    }
    if (response.writableFinished || response.destroyed) taken();
    else response.once('close', taken);
    return true;
  }
}

/**
 * Marks a route as a heavy read (D2a: the unpaged lines list, the partner ledger, reports, exports):
 * at most HEAVY_READS_PER_USER at a time per User and HEAVY_READS_TOTAL per instance, beyond that
 * 429 TOO_MANY_CONCURRENT_READS_ERROR with Retry-After. Runs after the global guards, so a refused
 * caller never takes a slot.
 */
export const HeavyRead = () => applyDecorators(UseGuards(HeavyReadGuard));

/** A route whose JSON answer is light but whose exports are heavy (D2a, D93): the slot is taken only for `format=csv|xlsx`. */
@Injectable()
export class HeavyExportGuard implements CanActivate {
  constructor(private readonly reads: HeavyReadGuard) {}

  canActivate(context: ExecutionContext): boolean {
    const format = context.switchToHttp().getRequest<RequestWithPrincipal>().query?.format;
    return format === 'csv' || format === 'xlsx' ? this.reads.canActivate(context) : true;
  }
}

/** Marks a paged list or a light report whose CSV and XLSX exports are heavy reads (D93: the whole range, streamed). */
export const HeavyExport = () => applyDecorators(UseGuards(HeavyExportGuard));

@Global()
@Module({ providers: [HeavyReadSlots, HeavyReadGuard, HeavyExportGuard], exports: [HeavyReadSlots, HeavyReadGuard, HeavyExportGuard] })
export class HeavyReadsModule {}
