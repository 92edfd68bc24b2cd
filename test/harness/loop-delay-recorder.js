// Preloaded into a service process (NODE_OPTIONS=--require) by tests that watch its event loop:
// every 100 ms it writes the largest event-loop delay seen since start, in ms, to
// LOOP_DELAY_FILE (perf_hooks.monitorEventLoopDelay, 5 ms resolution). Plain JavaScript so
// that it loads before any compiler hook.
const { monitorEventLoopDelay } = require('node:perf_hooks');
const { renameSync, writeFileSync } = require('node:fs');
const { setInterval } = require('node:timers');

const file = process.env.LOOP_DELAY_FILE;
if (file) {
  const histogram = monitorEventLoopDelay({ resolution: 5 });
  histogram.enable();
  setInterval(() => {
    // Written beside and renamed, so a reader never sees a half-written file.
    writeFileSync(`${file}.tmp`, JSON.stringify({ maxMs: histogram.max / 1e6, p99Ms: histogram.percentile(99) / 1e6 }));
    renameSync(`${file}.tmp`, file);
  }, 100).unref();
}
