import 'reflect-metadata';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { createApp } from './app';
import { ConfigError, loadConfig } from './platform/config/app-config';
import { startupFailureLine } from './platform/embedded/embedded-part-error';
import { startEmbeddedParts, StartedParts } from './platform/embedded/embedded-parts';

/**
 * Issue 33: the address really bound (`0.0.0.0`, every interface, by default), then where to
 * open it on this machine (Nest's getUrl names 127.0.0.1 for both).
 */
function listeningLine(address: AddressInfo | string | null, url: string): string {
  if (!address || typeof address === 'string') return `listening on ${url} (docs at ${url}/api/docs)`;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const everywhere = address.address === '0.0.0.0' || address.address === '::';
  return `listening on ${host}:${address.port}${everywhere ? ' (every interface)' : ''}: open ${url}/api (docs at ${url}/api/docs, admin at ${url}/admin)`;
}

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
  const log = pino({ level: config.logLevel, name: 'bootstrap' });
  let parts: StartedParts;
  try {
    parts = await startEmbeddedParts(config, (message) => log.info(message));
  } catch (error) {
    // One line that says what failed and what to do (an embedded part), never a stack trace.
    process.stderr.write(`${startupFailureLine(error)}\n`);
    process.exit(1);
  }

  let app;
  try {
    app = await createApp(parts.config);
    await app.listen(parts.config.port, parts.config.host);
  } catch (error) {
    log.fatal({ err: error }, 'start-up failed');
    await app?.close().catch(() => undefined);
    await parts.stop();
    process.exit(1);
  }
  const url = await app.getUrl();
  log.info(listeningLine(app.getHttpServer().address(), url));
  // A parent that started this process with an IPC channel (a supervisor, the crash-safety test)
  // learns where it listens. With PORT=0 the kernel chooses the port as it binds it: a port chosen
  // beforehand may be taken by another process in between, and that process would then answer.
  process.send?.({ type: 'listening', url });

  let stopping = false;
  const stop = async (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    log.info(`${signal}: finishing in-flight requests`);
    try {
      await app.close(); // stops accepting, waits for in-flight requests, closes the pool
      await parts.stop();
      log.info('stopped');
      process.exit(0);
    } catch (error) {
      log.error({ err: error }, 'unclean shutdown');
      process.exit(1);
    }
  };
  process.on('SIGTERM', (signal) => void stop(signal));
  process.on('SIGINT', (signal) => void stop(signal));
}

main().catch((error: unknown) => {
  process.stderr.write(`${startupFailureLine(error)}\n`);
  process.exit(1);
});
