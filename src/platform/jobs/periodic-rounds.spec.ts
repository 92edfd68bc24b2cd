import { PeriodicRounds } from './periodic-rounds';

describe('PeriodicRounds', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('runs a round every interval, skips a tick while one runs, reports a failure and goes on; stop waits for the round under way', async () => {
    const ends: Array<() => void> = [];
    const errors: unknown[] = [];
    let started = 0;
    const rounds = new PeriodicRounds(
      () =>
        new Promise<void>((resolve, reject) => {
          started++;
          ends.push(started === 2 ? () => reject(new Error('boom')) : resolve);
        }),
      (error) => errors.push(error),
    );
    rounds.start(5);
    jest.advanceTimersByTime(4_999);
    expect(started).toBe(0);
    jest.advanceTimersByTime(1);
    expect(started).toBe(1);
    // The first round still runs: the next ticks are skipped.
    jest.advanceTimersByTime(10_000);
    expect(started).toBe(1);
    ends[0]();
    await Promise.resolve();
    await Promise.resolve();
    jest.advanceTimersByTime(5_000);
    expect(started).toBe(2);
    ends[1]();
    for (let i = 0; i < 4; i++) await Promise.resolve();
    expect(errors).toEqual([new Error('boom')]);
    jest.advanceTimersByTime(5_000);
    expect(started).toBe(3);
    let stopped = false;
    const stopping = rounds.stop().then(() => (stopped = true));
    await Promise.resolve();
    expect(stopped).toBe(false);
    ends[2]();
    await stopping;
    jest.advanceTimersByTime(50_000);
    expect(started).toBe(3);
  });

  it('never runs at 0 seconds', () => {
    const round = jest.fn(() => Promise.resolve());
    new PeriodicRounds(round, () => undefined).start(0);
    jest.advanceTimersByTime(1_000_000);
    expect(round).not.toHaveBeenCalled();
  });
});
