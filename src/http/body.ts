// Reading request bodies ourselves (fastify's parsers are off) so that every content-type,
// size and syntax problem gets Meilisearch's error, after authentication.
import type { FastifyRequest } from 'fastify';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import type { Readable } from 'node:stream';
import { ApiError } from '../api/errors/index.ts';

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

/** The media type of a Content-Type header (`type/subtype`), or undefined when absent. */
export function mediaType(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  return header.split(';')[0]!.trim().toLowerCase();
}

/**
 * Reads a JSON body. `required: false` returns undefined for an empty body without a
 * Content-Type (routes whose body is optional).
 */
export async function readJson(req: FastifyRequest, opts: { limit: number; limitText: string; required?: boolean }): Promise<unknown> {
  const header = req.headers['content-type'];
  const type = mediaType(header);
  const lengthZero = req.headers['content-length'] === '0' || (req.headers['content-length'] === undefined && req.headers['transfer-encoding'] === undefined);
  if (type === undefined) {
    if (opts.required === false && lengthZero) return undefined;
    throw new ApiError('missing_content_type', 'A Content-Type header is missing. Accepted values for the Content-Type header are: `application/json`');
  }
  if (type !== 'application/json') {
    throw new ApiError('invalid_content_type', `The Content-Type \`${type.includes('/') ? type : header}\` is invalid. Accepted values for the Content-Type header are: \`application/json\``);
  }
  const bytes = await readBodyBytes(req, opts.limit, opts.limitText);
  const text = bytes.toString('utf8');
  if (text.trim() === '') {
    if (opts.required === false) return undefined;
    throw new ApiError('missing_payload', 'A json payload is missing.');
  }
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new ApiError('malformed_payload', `The json payload provided is malformed. \`${jsonErrorText(text, err as Error)}\`.`);
  }
}

/** A serde_json-like description of a JSON syntax error: `<reason> at line L column C`. */
function jsonErrorText(text: string, err: Error): string {
  const m = /position (\d+)/.exec(err.message);
  const pos = m ? Number(m[1]) : text.length;
  let line = 1;
  let col = 0;
  for (let i = 0; i < pos && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      col = 0;
    } else col++;
  }
  const eof = pos >= text.length || /Unexpected end/.test(err.message);
  const reason = eof ? 'EOF while parsing a value' : 'expected value';
  return `${reason} at line ${line} column ${eof ? col : col + 1}`;
}
