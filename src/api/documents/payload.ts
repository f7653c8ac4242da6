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

async function writeAll(file: FileHandle, blocks: Buffer[]): Promise<void> {
  for (const block of blocks) {
    let offset = 0;
    while (offset < block.length) {
      const { bytesWritten } = await file.write(block, offset, block.length - offset);
      offset += bytesWritten;
    }
  }
}

/**
 * Streams a request body into an NDJSON update file, fsyncs and closes it. Throws ApiError on
 * bad input or size limit, after removing the partial file.
 */
export async function writeDocumentsPayload(
  input: DocumentsPayloadInput,
): Promise<{ documentsCount: number; bytesWritten: number }> {
  const file = await open(input.outPath, 'w');
  let done = false;
  try {
    const out = new OutputBuffer();
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
        await writeAll(file, out.takeFull());
      }
    } finally {
      body.release();
    }
    if (received === 0) throw missingPayload(input.format);
    if (parseError !== null) throw parseError;
    parser.end();
    await writeAll(file, out.takeAll());
    await file.sync();
    done = true;
    return { documentsCount: parser.count, bytesWritten: out.bytes };
  } finally {
    await file.close().catch(() => {});
    if (!done) await unlink(input.outPath).catch(() => {});
  }
}
