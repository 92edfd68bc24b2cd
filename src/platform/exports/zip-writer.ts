import { createDeflateRaw, crc32, type ZlibOptions } from 'node:zlib';

/** Deflate level of the entries: 1 (fastest) keeps a streamed export CPU-bound on the rows, not on compression (docs/DECISIONS.md, issue 38). */
const LEVEL = 1;
/** Text gathered before it is handed to the compressor (fewer, larger zlib calls). */
const GATHER = 256 * 1024;
/** Text given to the compressor and not yet deflated, at most (then the writer waits for it). */
const PENDING = 1024 * 1024;
const MAX_32 = 0xffffffff;
// MS-DOS date of 1980-01-01, time 00:00: the entries carry no meaningful time.
const DOS_DATE = (0 << 9) | (1 << 5) | 1;

interface Written {
  name: Buffer;
  crc: number;
  compressed: number;
  size: number;
  offset: number;
}

/**
 * A ZIP archive (the container of an OOXML workbook) written as a stream: each entry is deflated
 * as its text comes and followed by a data descriptor (general purpose flag bit 3), so neither
 * its size nor its checksum is needed beforehand, and the central directory closes the archive.
 * Without ZIP64: an entry or the archive past 4 GiB is refused (an error mid-stream cuts the
 * connection; a year's journal of a million lines is about 70 MB of sheet text).
 */
export class ZipWriter {
  private readonly written: Written[] = [];
  private offset = 0;

  private count(chunk: Buffer): Buffer {
    this.offset += chunk.length;
    if (this.offset > MAX_32) throw new Error('The archive would pass 4 GiB, which this writer does not support (no ZIP64)');
    return chunk;
  }

  /** The bytes of one entry whose uncompressed content is the text pieces given. */
  async *entry(fileName: string, pieces: AsyncIterable<string> | Iterable<string>): AsyncGenerator<Buffer> {
    const name = Buffer.from(fileName, 'utf8');
    const start = this.offset;
    const header = Buffer.alloc(30);
    header.writeUInt32LE(0x04034b50, 0);
    header.writeUInt16LE(20, 4); // version needed: 2.0 (deflate)
    header.writeUInt16LE(0x0808, 6); // data descriptor follows; names in UTF-8
    header.writeUInt16LE(8, 8); // deflate
    header.writeUInt16LE(0, 10);
    header.writeUInt16LE(DOS_DATE, 12);
    // crc, sizes: 0 here, in the data descriptor
    header.writeUInt16LE(name.length, 26);
    header.writeUInt16LE(0, 28);
    yield this.count(Buffer.concat([header, name]));

    // Up to PENDING bytes handed over before a write waits: the compressor (on libuv's threads)
    // deflates one piece while the rows of the next are written.
    const deflate = createDeflateRaw({ level: LEVEL, chunkSize: 64 * 1024, writableHighWaterMark: PENDING } as ZlibOptions);
    const out: Buffer[] = [];
    let failure: Error | null = null;
    deflate.on('data', (chunk: Buffer) => out.push(chunk));
    deflate.on('error', (error) => (failure = error));
    const ended = new Promise<void>((resolve) => deflate.once('end', resolve));
    let crc = 0;
    let size = 0;
    let compressed = 0;
    const feed = async (text: string) => {
      const bytes = Buffer.from(text, 'utf8');
      crc = crc32(bytes, crc);
      size += bytes.length;
      if (size > MAX_32) throw new Error('An archive entry would pass 4 GiB, which this writer does not support (no ZIP64)');
      if (!deflate.write(bytes)) {
        await new Promise<void>((resolve) => {
          const done = () => {
            deflate.off('drain', done);
            deflate.off('error', done);
            resolve();
          };
          deflate.once('drain', done);
          deflate.once('error', done);
        });
        if (failure) throw failure;
      }
    };
    const flushOut = function* (this: ZipWriter) {
      while (out.length > 0) {
        const chunk = out.shift()!;
        compressed += chunk.length;
        yield this.count(chunk);
      }
    }.bind(this);
    try {
      let gathered = '';
      for await (const piece of pieces) {
        gathered += piece;
        if (gathered.length < GATHER) continue;
        await feed(gathered);
        gathered = '';
        yield* flushOut();
      }
      if (gathered.length > 0) await feed(gathered);
      deflate.end();
      await ended;
      if (failure) throw failure;
      yield* flushOut();
    } finally {
      deflate.destroy();
    }
    const descriptor = Buffer.alloc(16);
    descriptor.writeUInt32LE(0x08074b50, 0);
    descriptor.writeUInt32LE(crc >>> 0, 4);
    descriptor.writeUInt32LE(compressed, 8);
    descriptor.writeUInt32LE(size, 12);
    yield this.count(descriptor);
    this.written.push({ name, crc: crc >>> 0, compressed, size, offset: start });
  }

  /** The central directory and its end record: the archive's last bytes. */
  finish(): Buffer {
    const directoryStart = this.offset;
    const parts: Buffer[] = [];
    for (const w of this.written) {
      const h = Buffer.alloc(46);
      h.writeUInt32LE(0x02014b50, 0);
      h.writeUInt16LE(20, 4); // made by: 2.0, MS-DOS attributes
      h.writeUInt16LE(20, 6);
      h.writeUInt16LE(0x0808, 8);
      h.writeUInt16LE(8, 10);
      h.writeUInt16LE(0, 12);
      h.writeUInt16LE(DOS_DATE, 14);
      h.writeUInt32LE(w.crc, 16);
      h.writeUInt32LE(w.compressed, 20);
      h.writeUInt32LE(w.size, 24);
      h.writeUInt16LE(w.name.length, 28);
      // extra, comment, disk, attributes: 0
      h.writeUInt32LE(w.offset, 42);
      parts.push(h, w.name);
    }
    const directory = Buffer.concat(parts);
    const end = Buffer.alloc(22);
    end.writeUInt32LE(0x06054b50, 0);
    end.writeUInt16LE(this.written.length, 8);
    end.writeUInt16LE(this.written.length, 10);
    end.writeUInt32LE(directory.length, 12);
    end.writeUInt32LE(directoryStart, 16);
    return this.count(Buffer.concat([directory, end]));
  }
}
