/**
 * A background job's timer: `round` every `seconds` (0: never), never two rounds at once (a tick
 * while one runs is skipped), the timer not keeping the process alive; `stop` waits for the round
 * under way. A round's failure goes to `onError` and the next tick tries again.
 */
export class PeriodicRounds {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> | undefined;

  constructor(
    private readonly round: () => Promise<unknown>,
    private readonly onError: (error: unknown) => void,
  ) {}

  start(seconds: number): void {
    if (seconds <= 0) return;
    this.timer = setInterval(() => {
      if (this.running) return;
      this.running = this.round()
        .catch(this.onError)
        .finally(() => (this.running = undefined));
    }, seconds * 1000);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }
}
