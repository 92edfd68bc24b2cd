import type { Response } from 'express';
import { ReadCancelledError } from '../database/read-cursor';

/** D2a: a JSON array written to `res` batch by batch (sendJsonText's rules). */
export function sendJsonArray<T>(res: Response, batches: AsyncIterable<T[]>): Promise<void> {
  return sendJsonText(
    res,
    (async function* () {
      let started = false;
      for await (const batch of batches) {
        let chunk = '';
        for (const item of batch) {
          chunk += `${started ? ',' : '['}${JSON.stringify(item)}`;
          started = true;
        }
        yield chunk;
      }
      yield started ? ']' : '[]';
    })(),
  );
}

/** An AbortSignal that aborts when the client of `res` goes before the answer is complete. */
export function signalOnDisconnect(res: Response): AbortSignal {
  const controller = new AbortController();
  res.once('close', () => {
    if (!res.writableFinished) controller.abort();
  });
  return controller.signal;
}

function drainedOrClosed(res: Response): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.once('drain', done);
    res.once('close', done);
  });
}

export type SendBatches = <T, U>(batches: AsyncIterable<T[]>, present: (batch: T[]) => Promise<U[]> | U[]) => Promise<void>;

/**
 * A streamed JSON array answer (D2a): `produce` gets a signal that aborts when the client goes
 * and a `send` that writes the batches it is given, each presented first. A refusal thrown before
 * the first batch is an ordinary error answer; a read cut short by the client ends quietly.
 */
export async function streamJsonArray(res: Response, produce: (signal: AbortSignal, send: SendBatches) => Promise<void>): Promise<void> {
  const send: SendBatches = (batches, present) =>
    sendJsonArray(
      res,
      (async function* () {
        for await (const batch of batches) yield await present(batch);
      })(),
    );
  await streamJson(res, (signal) => produce(signal, send));
}

/**
 * A streamed JSON answer of any shape (D2a): `produce` gets a signal that aborts when the client
 * goes; a refusal thrown before the first byte is an ordinary error answer, a read cut short by
 * the client ends quietly.
 */
export async function streamJson(res: Response, produce: (signal: AbortSignal) => Promise<void>): Promise<void> {
  const signal = signalOnDisconnect(res);
  try {
    await produce(signal);
  } catch (error) {
    if (error instanceof ReadCancelledError || signal.aborted) return;
    throw error;
  }
}

/**
 * Writes the pieces of one JSON text to `res` as they come, waiting for the socket to drain, so
 * that the service's memory does not grow with the answer. The status and headers go with the
 * first piece; an error after that can no longer be an envelope: the connection is cut, so the
 * client sees a truncated body, never a complete-looking wrong one.
 */
export function sendJsonText(res: Response, pieces: AsyncIterable<string>): Promise<void> {
  return sendPieces(res, pieces, () => res.status(200).type('application/json'));
}

/**
 * sendJsonText's rules for an answer of any type (a CSV or XLSX export, D93): `begin` sets the
 * status and headers, with the first piece or at the end when there was none.
 */
export async function sendPieces(res: Response, pieces: AsyncIterable<string | Buffer>, begin: () => void): Promise<void> {
  try {
    for await (const piece of pieces) {
      if (piece.length === 0) continue;
      if (!res.headersSent) begin();
      if (res.destroyed) return;
      if (!res.write(piece)) await drainedOrClosed(res);
    }
  } catch (error) {
    if (!res.headersSent) throw error;
    res.destroy(error instanceof Error ? error : undefined);
    return;
  }
  if (!res.headersSent) begin();
  res.end();
}
