// Streams a documents payload (JSON array/object, NDJSON or CSV, possibly compressed) into an
// NDJSON update file: one compact JSON object per line, numbers and strings as sent.
//
// Error precedence follows Meilisearch, which copies the whole body before parsing it:
// size limit / broken body first, then the missing payload, then the parse error (the rest of
// the body is still read — and counted against the limit — after a parse error).
import { open, unlink, type FileHandle } from 'node:fs/promises';
import { ApiError } from '../errors/index.ts';
import { openBody } from './body.ts';
import { CsvConverter } from './csv.ts';
import { JsonScanner } from './json-scanner.ts';
import { missingPayload, payloadTooLarge, type PayloadFormat } from './messages.ts';
import { OutputBuffer } from './out-buffer.ts';

export { documentFormat } from './content-type.ts';
export type { PayloadFormat } from './messages.ts';

export interface DocumentsPayloadInput {
  /** The raw request stream (node IncomingMessage) or any async iterable of bytes. */
  body: AsyncIterable<Buffer | Uint8Array>;
  /** gzip | deflate | br | identity | undefined — decompressed while streaming. */
  contentEncoding: string | undefined;
  format: PayloadFormat;
  /** CSV delimiter byte (ignored for JSON/NDJSON). */
  delimiter: number;
  /** Maximum payload size in bytes, counted on the decompressed body like Meilisearch. */
  limit: number;
  /** The limit as shown in the 413 message, e.g. `100 MB`. */
  limitText: string;
  outPath: string;
}

/** Bytes written between two background datasyncs; output blocks queued for writing at most. */
const SYNC_EVERY = 4 << 20;
const MAX_QUEUED = 4;

/**
 * Writes the output blocks in the background while the parser reads on (at most MAX_QUEUED
 * blocks waiting or being written), and flushes them to disk as it goes so that the final
 * fsync has little left to do.
 */
class BlockWriter {
  private tail: Promise<void> = Promise.resolve();
  private queued: Promise<void>[] = [];
  private error: unknown = null;
  private syncing: Promise<void> | null = null;
  private unsynced = 0;

  constructor(private readonly file: FileHandle) {}

  /** Queues the blocks, first waiting while too many are queued; throws the first write error. */
  async write(blocks: Buffer[]): Promise<void> {
    for (const block of blocks) {
      while (this.queued.length >= MAX_QUEUED) await this.queued.shift();
      this.check();
      const done = this.tail.then(() => (this.error === null ? this.writeBlock(block) : undefined));
      this.tail = done;
      this.queued.push(done);
    }
  }

  /** Waits for the queued blocks; throws the first write error. */
  async flush(): Promise<void> {
    await this.tail;
    this.queued = [];
    this.check();
  }

  /** Waits for everything, then fsyncs the file. */
  async sync(): Promise<void> {
    await this.flush();
    await this.syncing;
    this.check(); // Linux reports a writeback error only once: a failed datasync must fail here
    await this.file.sync();
  }

  private check(): void {
    if (this.error !== null) throw this.error;
  }

  private async writeBlock(block: Buffer): Promise<void> {
    try {
      let offset = 0;
      while (offset < block.length) {
        const { bytesWritten } = await this.file.write(block, offset, block.length - offset);
        offset += bytesWritten;
      }
    } catch (error) {
      this.error ??= error;
      return;
    }
    OutputBuffer.recycle(block);
    this.unsynced += block.length;
    if (this.unsynced < SYNC_EVERY || this.syncing !== null) return;
    this.unsynced = 0;
    this.syncing = this.file.datasync().then(
      () => void (this.syncing = null),
      (error: unknown) => void ((this.error ??= error), (this.syncing = null)),
    );
  }
}

/**
 * Streams a request body into an NDJSON update file, fsyncs and closes it. Throws ApiError on
 * bad input or size limit, after removing the partial file.
 */
export async function writeDocumentsPayload(
  input: DocumentsPayloadInput,
): Promise<{ documentsCount: number; bytesWritten: number; valueError: string | null }> {
  const file = await open(input.outPath, 'w');
  let done = false;
  try {
    const out = new OutputBuffer();
    const writer = new BlockWriter(file);
    const parser = input.format === 'csv' ? new CsvConverter(input.delimiter, out) : new JsonScanner(input.format, out);
    const body = openBody(input.body, input.contentEncoding);
    let received = 0;
    let parseError: unknown = null;
    try {
      for (;;) {
        const chunk = await body.next();
        if (chunk === null) break;
        received += chunk.length;
        if (received > input.limit) throw payloadTooLarge(input.limitText);
        if (parseError !== null || chunk.length === 0) continue;
        try {
          parser.feed(chunk);
        } catch (error) {
          if (!(error instanceof ApiError)) throw error;
          parseError = error;
          continue;
        }
        await writer.write(out.takeFull());
      }
    } finally {
      body.release();
      await writer.flush().catch(() => {}); // no write left running when the file is closed
    }
    await writer.flush(); // a failed write comes first (written in step, it stopped the reading)
    if (received === 0) throw missingPayload(input.format);
    if (parseError !== null) throw parseError;
    parser.end();
    await writer.write(out.takeAll());
    await writer.sync();
    done = true;
    const valueError = parser instanceof JsonScanner && parser.valueError !== '' ? parser.valueError : null;
    return { documentsCount: parser.count, bytesWritten: out.bytes, valueError };
  } finally {
    await file.close().catch(() => {});
    if (!done) await unlink(input.outPath).catch(() => {});
  }
}
