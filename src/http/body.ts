// Reading request bodies ourselves (fastify's parsers are off) so that every content-type,
// size and syntax problem gets Meilisearch's error, after authentication.
import type { FastifyRequest } from 'fastify';
import zlib, { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import type { Readable } from 'node:stream';
import { ApiError } from '../api/errors/index.ts';
import { JsonSyntaxError, parseJson, type ParsedJson } from '../api/validate/json.ts';
import { isJsonMediaType, isVisibleAscii, parseMediaType } from '../api/validate/media-type.ts';

/** The request body as a stream, decompressed per Content-Encoding. */
export function bodyStream(req: FastifyRequest): Readable {
  const raw = req.raw;
  const enc = String(req.headers['content-encoding'] ?? 'identity').toLowerCase();
  switch (enc) {
    case 'gzip':
      return raw.pipe(createGunzip());
    case 'deflate':
      return raw.pipe(createInflate());
    case 'br':
      return raw.pipe(createBrotliDecompress());
    case 'zstd': {
      // Node 22.15 and later; before it (and in Meilisearch 1.50) the body is read as it is
      const zstd = (zlib as { createZstdDecompress?: () => NodeJS.ReadWriteStream }).createZstdDecompress;
      return zstd === undefined ? raw : (raw.pipe(zstd()) as unknown as Readable);
    }
    default:
      return raw;
  }
}

/** Reads the whole body, bounded by `limit` decompressed bytes (as Meilisearch counts). */
export async function readBodyBytes(req: FastifyRequest, limit: number, limitText: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  try {
    for await (const chunk of bodyStream(req)) {
      total += (chunk as Buffer).length;
      if (total > limit) throw payloadTooLarge(limitText);
      chunks.push(chunk as Buffer);
    }
  } catch (err) {
    if (err instanceof ApiError) {
      req.raw.resume(); // drain the rest so the error reaches the client
      throw err;
    }
    throw new ApiError('bad_request', 'The provided payload is incomplete and cannot be parsed');
  }
  return Buffer.concat(chunks, total);
}

export function payloadTooLarge(limitText: string): ApiError {
  return new ApiError('payload_too_large', `The provided payload reached the size limit. The maximum accepted payload size is ${limitText}.`);
}

/**
 * The request's Content-Type header. app.ts takes it out of the headers before fastify sees it
 * (fastify answers an unparsable one itself), so routes read it here.
 */
export function contentTypeHeader(req: FastifyRequest): string | undefined {
  return req.contentTypeHeader ?? undefined;
}

const JSON_ONLY = 'Accepted values for the Content-Type header are: `application/json`';

/** Reads a JSON body: Content-Type, size, then serde_json's syntax (json.ts). */
export async function readJsonBody(req: FastifyRequest, opts: { limit: number; limitText: string }): Promise<ParsedJson & { bytes: Buffer }> {
  const header = contentTypeHeader(req);
  if (header === undefined) throw new ApiError('missing_content_type', `A Content-Type header is missing. ${JSON_ONLY}`);
  const media = parseMediaType(header);
  if (media === null || !isJsonMediaType(media)) {
    // actix prints the header as it came, or `unknown` when it is not visible ASCII
    throw new ApiError('invalid_content_type', `The Content-Type \`${isVisibleAscii(header) ? header : 'unknown'}\` is invalid. ${JSON_ONLY}`);
  }
  const bytes = await readBodyBytes(req, opts.limit, opts.limitText);
  if (bytes.length === 0) throw new ApiError('missing_payload', 'A json payload is missing.');
  try {
    return { ...parseJson(bytes), bytes };
  } catch (err) {
    if (err instanceof JsonSyntaxError) throw new ApiError('malformed_payload', `The json payload provided is malformed. \`${err.message}\`.`);
    throw err;
  }
}

/** The value of a JSON body (see readJsonBody). Every JSON route requires one, as in Meilisearch. */
export async function readJson(req: FastifyRequest, opts: { limit: number; limitText: string }): Promise<unknown> {
  return (await readJsonBody(req, opts)).value;
}
