// The `export` batch: the indexes matching the task's patterns are pushed to another server that
// speaks the Meilisearch API, as Meilisearch 1.50 does it (checked against the binary with a stand-in
// server): per index, `GET /indexes/{uid}`; when missing, `POST /indexes` with the primary key and
// `PATCH /indexes/{uid}/settings` with every setting (secrets in clear); when present, the settings
// only with `overrideSettings`; then the documents matching the filter, with their embeddings in
// `_vectors`, as gzip NDJSON `POST /indexes/{uid}/documents` bodies of at most `payloadSize` bytes.
// The remote's tasks are not awaited. Requests go through outgoing.ts (private-network rule,
// timeouts, bounded retries); a cancelation aborts the request in flight.
import zlib from 'node:zlib';
import { promisify } from 'node:util';
import { ApiError } from '../../api/errors/index.ts';
import { DEFAULT_EXPORT_PAYLOAD_SIZE, type ExportIndexOptions } from '../../api/export/index.ts';
import { transferDocument } from '../../api/documents/browse.ts';
import { compileFilter } from '../../api/filter/index.ts';
import { settingsView } from '../../api/settings/index.ts';
import { vectorFilterSource, vectorsOf } from '../../api/vectors/retrieve.ts';
import { matchesIndexPattern } from '../../auth/index-pattern.ts';
import { facetReader } from '../../engine/facet/index.ts';
import { Bitmap } from '../../engine/bitmap/index.ts';
import { storedSettings } from '../index-settings.ts';
import { FeatureStore } from '../features.ts';
import { send, OutgoingError, type AllowedNetworks } from '../outgoing.ts';
import type { Task } from '../types.ts';
import { Aborted, failed, succeeded, type BatchResult, type ProcessContext } from './context.ts';

const gzip = promisify(zlib.gzip);

interface ExportPayload {
  url: string;
  apiKey: string | null;
  /** bytes; a dump from Meilisearch gives it as text (then the default applies) */
  payloadSize: number | string | null;
  indexes: Record<string, ExportIndexOptions>;
}

export async function processExport(task: Task, ctx: ProcessContext): Promise<BatchResult> {
  if (task.kind.kind !== 'export') throw new Error('not an export');
  const p = task.kind.payload as unknown as ExportPayload;
  const abort = new AbortController();
  const poll = setInterval(() => ctx.shouldAbort() && abort.abort(new Aborted()), 50);
  try {
    const exported = await exportIndexes(p, ctx, abort.signal);
    const indexes: Record<string, unknown> = {};
    for (const [uid, e] of exported) indexes[uid] = { filter: e.options.filter ?? null, overrideSettings: e.options.overrideSettings, matched_documents: e.matched };
    return { tasks: [succeeded(task, { ...task.details, indexes })], indexUids: [] };
  } catch (err) {
    if (err instanceof Aborted || abort.signal.aborted) throw new Aborted();
    if (err instanceof ApiError) return { tasks: [failed(task, err)], indexUids: [] };
    if (err instanceof OutgoingError) return { tasks: [failed(task, new ApiError('internal', `Export to \`${p.url}\` failed: ${err.message}`))], indexUids: [] };
    throw err;
  } finally {
    clearInterval(poll);
  }
}

async function exportIndexes(p: ExportPayload, ctx: ProcessContext, signal: AbortSignal): Promise<Map<string, { options: ExportIndexOptions; matched: number }>> {
  let base: URL;
  try {
    base = new URL(p.url);
    if (base.protocol !== 'http:' && base.protocol !== 'https:') throw new Error('not http');
  } catch {
    throw new ApiError('invalid_export_url', `Invalid URL \`${p.url}\`: an export needs an \`http\` or \`https\` URL.`);
  }
  const allowed: AllowedNetworks = ctx.allowedNetworks ?? [];
  const headers: Record<string, string> = p.apiKey !== null ? { authorization: `Bearer ${p.apiKey}` } : {};
  const endpoint = (rest: string) => new URL(`${base.pathname.replace(/\/+$/, '')}${rest}`, base);
  const call = async (method: string, rest: string, body?: unknown, extra: Record<string, string> = {}) => {
    const json = body === undefined || body instanceof Uint8Array ? body : JSON.stringify(body);
    const res = await send(endpoint(rest), { method, headers: { ...headers, ...(typeof json === 'string' ? { 'content-type': 'application/json' } : {}), ...extra }, ...(json !== undefined ? { body: json } : {}) }, { allowed, signal });
    return res;
  };
  const expect = (res: { status: number; text: string }, what: string) => {
    if (res.status >= 200 && res.status < 300) return;
    throw new OutgoingError(`${what} answered ${res.status}: ${res.text.slice(0, 500)}`);
  };
  const patterns = Object.keys(p.indexes).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const features = new FeatureStore(ctx.queue, {}).get();
  const limit = typeof p.payloadSize === 'number' && p.payloadSize > 0 ? p.payloadSize : DEFAULT_EXPORT_PAYLOAD_SIZE;
  const out = new Map<string, { options: ExportIndexOptions; matched: number }>();
  const uids = ctx.queue.indexUids().sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  for (const [i, uid] of uids.entries()) {
    const pattern = patterns.find((pt) => matchesIndexPattern(pt, uid));
    if (pattern === undefined) continue;
    const options = p.indexes[pattern]!;
    const index = ctx.registry.get(uid);
    if (index === undefined) continue;
    ctx.progress(`Exporting index \`${uid}\``, i, uids.length);
    const settings = storedSettings(index);
    let ids = index.usedIds();
    if (options.filter !== null && options.filter !== undefined) {
      let filter;
      try {
        filter = compileFilter(options.filter, 'documents', features);
      } catch (err) {
        if (err instanceof ApiError) throw new ApiError('invalid_export_index_filter', `Index \`${uid}\`: ${err.message}`);
        throw err;
      }
      if (filter !== null) {
        const target = { filterableAttributes: settings.filterableAttributes, reader: facetReader(index), documents: ids, vectors: vectorFilterSource(index, settings) };
        ids = Bitmap.and(ids, filter.evaluate(target, uid));
      }
    }

    const remote = await call('GET', `/indexes/${encodeURIComponent(uid)}`);
    if (remote.status === 404) {
      expect(await call('POST', '/indexes', { uid, primaryKey: index.meta().primaryKey }), 'POST /indexes');
    } else expect(remote, `GET /indexes/${uid}`);
    if (remote.status === 404 || options.overrideSettings) {
      expect(await call('PATCH', `/indexes/${encodeURIComponent(uid)}/settings`, settingsView(settings, { revealSecrets: true, features })), `PATCH /indexes/${uid}/settings`);
    }

    const vectors = vectorsOf(index, settings);
    const documentsPath = `/indexes/${encodeURIComponent(uid)}/documents`;
    let lines: string[] = [];
    let bytes = 0;
    const flush = async () => {
      if (lines.length === 0) return;
      const body = await gzip(Buffer.from(lines.join('\n') + '\n'));
      lines = [];
      bytes = 0;
      expect(await call('POST', documentsPath, new Uint8Array(body), { 'content-type': 'application/x-ndjson', 'content-encoding': 'gzip' }), `POST ${documentsPath}`);
    };
    for (const id of ids) {
      const doc = index.documentById(id);
      if (doc === undefined) continue;
      const line = JSON.stringify(transferDocument(doc, vectors(id)));
      const size = Buffer.byteLength(line) + 1;
      if (bytes > 0 && bytes + size > limit) await flush();
      lines.push(line);
      bytes += size;
    }
    await flush();
    out.set(uid, { options, matched: ids.size });
  }
  return out;
}
