// Pull-style reading of a request body, decompressed on the fly. A request stream is never
// destroyed here: on release it is resumed, so Node discards what is left and the response
// can still be written (destroying an IncomingMessage would reset the connection).
import { Readable, type Transform } from 'node:stream';
import * as zlib from 'node:zlib';
import { incompletePayload } from './messages.ts';

export interface BodySource {
  /** The next decoded chunk, null at the end; throws ApiError bad_request on a broken body/encoding. */
  next(): Promise<Buffer | null>;
  /** Stops reading (idempotent). */
  release(): void;
}

function toBuffer(chunk: unknown): Buffer {
  if (Buffer.isBuffer(chunk)) return chunk;
  if (chunk instanceof Uint8Array) return Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  return Buffer.from(String(chunk));
}

/** The decompressor for a Content-Encoding; null for identity and unknown encodings (as actix). */
export function decoderFor(contentEncoding: string | undefined): Transform | null {
  switch (contentEncoding?.trim().toLowerCase()) {
    case 'gzip':
    case 'x-gzip':
      return zlib.createGunzip();
    case 'deflate':
      return zlib.createInflate();
    case 'br':
      return zlib.createBrotliDecompress();
    case 'zstd': {
      const create = (zlib as unknown as { createZstdDecompress?: () => Transform }).createZstdDecompress;
      return create ? create() : null;
    }
    default:
      return null;
  }
}

class StreamSource implements BodySource {
  private readonly queue: Buffer[] = [];
  private ended = false;
  private failed = false;
  private released = false;
  private wake: (() => void) | null = null;

  constructor(
    private readonly stream: Readable,
    private readonly onRelease: () => void,
  ) {
    this.ended = stream.readableEnded;
    stream.on('data', this.onData);
    stream.on('end', this.onEnd);
    stream.on('error', this.onError);
    stream.on('close', this.onClose);
  }

  private readonly onData = (chunk: unknown): void => {
    this.queue.push(toBuffer(chunk));
    if (this.queue.length >= 8) this.stream.pause();
    this.notify();
  };
  private readonly onEnd = (): void => {
    this.ended = true;
    this.notify();
  };
  private readonly onError = (): void => {
    this.failed = true;
    this.notify();
  };
  private readonly onClose = (): void => {
    if (!this.ended) this.failed = true;
    this.notify();
  };

  private notify(): void {
    const wake = this.wake;
    this.wake = null;
    wake?.();
  }

  async next(): Promise<Buffer | null> {
    for (;;) {
      const chunk = this.queue.shift();
      if (chunk !== undefined) {
        if (this.queue.length < 2 && this.stream.isPaused()) this.stream.resume();
        return chunk;
      }
      if (this.failed) throw incompletePayload();
      if (this.ended) return null;
      if (this.stream.isPaused()) this.stream.resume();
      await new Promise<void>((resolve) => (this.wake = resolve));
    }
  }

  release(): void {
    if (this.released) return;
    this.released = true;
    this.stream.off('data', this.onData);
    this.stream.off('end', this.onEnd);
    this.stream.off('close', this.onClose);
    // keep an error listener: an 'error' without listener would crash the process
    this.stream.off('error', this.onError);
    this.stream.on('error', () => {});
    this.onRelease();
  }
}

class IterableSource implements BodySource {
  private readonly iterator: AsyncIterator<Buffer | Uint8Array>;
  private released = false;

  constructor(body: AsyncIterable<Buffer | Uint8Array>) {
    this.iterator = body[Symbol.asyncIterator]();
  }

  async next(): Promise<Buffer | null> {
    let result: IteratorResult<Buffer | Uint8Array>;
    try {
      result = await this.iterator.next();
    } catch {
      throw incompletePayload();
    }
    return result.done ? null : toBuffer(result.value);
  }

  release(): void {
    if (this.released) return;
    this.released = true;
    this.iterator.return?.().catch(() => {});
  }
}

export function openBody(body: AsyncIterable<Buffer | Uint8Array>, contentEncoding: string | undefined): BodySource {
  const decoder = decoderFor(contentEncoding);
  const isStream = body instanceof Readable;
  if (decoder === null) {
    return isStream ? new StreamSource(body, () => body.resume()) : new IterableSource(body);
  }
  const source = isStream ? body : Readable.from(body, { objectMode: false });
  const onSourceError = (): void => {
    decoder.destroy(new Error('request body failed'));
  };
  const onSourceClose = (): void => {
    if (!source.readableEnded) decoder.destroy(new Error('request body closed early'));
  };
  source.on('error', onSourceError);
  source.on('close', onSourceClose);
  source.pipe(decoder);
  return new StreamSource(decoder, () => {
    source.unpipe(decoder);
    source.off('close', onSourceClose);
    decoder.destroy();
    if (isStream) source.resume();
    else source.destroy();
  });
}
