import { setImmediate as immediate } from 'node:timers/promises';

/**
 * D2b: long work (parsing an import) gives the event loop back every `budgetMs` of CPU, so that
 * health, reads and every other request go on meanwhile. Call `maybeYield()` between slices of
 * the work: it resolves at once while the slice's budget lasts, else after the loop's pending
 * I/O and timers had their turn.
 */
export class LoopYielder {
  private sliceStart = performance.now();

  constructor(private readonly budgetMs = 8) {}

  async maybeYield(): Promise<void> {
    if (performance.now() - this.sliceStart < this.budgetMs) return;
    await immediate();
    this.sliceStart = performance.now();
  }
}
