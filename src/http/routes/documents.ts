// /indexes/:indexUid/documents and its sub-routes (documents.md)
import { compileFilter } from '../../api/filter/index.ts';
import fs from 'node:fs';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../../api/errors/index.ts';
import { browseDocuments, present } from '../../api/documents/browse.ts';
import { documentVectors } from '../../api/vectors/retrieve.ts';
import { rejectUseNetwork } from '../../api/search/index.ts';
import {
  parseBrowseQuery,
  parseFetchBody,
  parseGetDocumentQuery,
  type FetchDocuments,
} from '../../api/documents/fetch.ts';
import { documentFormat, writeDocumentsPayload } from '../../api/documents/payload.ts';
import { enqueuedDetails } from '../../api/tasks/details.ts';
import { summarizedTaskView } from '../../api/tasks/views.ts';
import { checkFields, expectObject } from '../../api/validate/index.ts';
import { checkParams, queryBoolean, type RawQuery } from '../../api/validate/query.ts';
import type { Index } from '../../engine/index/index.ts';
import type { TaskKind } from '../../tasks/types.ts';
import type { HttpContext } from '../context.ts';
import { contentTypeHeader, readJson, readJsonBody } from '../body.ts';
import { jsonPosition, type ParsedJson } from '../../api/validate/json.ts';
import { rustDebugString } from '../../api/documents/messages.ts';
import { indexParam, query, requireIndex } from './indexes.ts';

const ADD_PARAMS = ['primaryKey', 'csvDelimiter', 'customMetadata', 'skipCreation'] as const;

function customMetadata(q: RawQuery): { customMetadata?: string } {
  return q.customMetadata === undefined ? {} : { customMetadata: q.customMetadata };
}

export function registerDocumentRoutes(app: FastifyInstance, ctx: HttpContext): void {
  const { instance } = ctx;
  const json = (req: FastifyRequest) => readJson(req, { limit: ctx.payloadLimit, limitText: ctx.payloadLimitText });
  const enqueue = async (reply: FastifyReply, indexUid: string, kind: TaskKind, q: RawQuery) => {
    const task = await instance.register({ indexUid, kind, details: enqueuedDetails(kind, { indexUid }), ...customMetadata(q) });
    reply.code(202);
    return summarizedTaskView(task);
  };

  const addOrUpdate = (method: 'replace' | 'update') => async (req: FastifyRequest, reply: FastifyReply) => {
    const uid = indexParam(req);
    const q = query(req);
    checkParams(q, ADD_PARAMS);
    const skipCreation = q.skipCreation === undefined ? false : parseSkipCreation(q.skipCreation);
    const { format, delimiter } = documentFormat(contentTypeHeader(req), q.csvDelimiter);
    const file = instance.files.reserve();
    const written = await writeDocumentsPayload({
      body: req.raw,
      contentEncoding: req.headers['content-encoding'],
      format,
      delimiter,
      limit: ctx.payloadLimit,
      limitText: ctx.payloadLimitText,
      outPath: file.path,
    });
    const kind: TaskKind = {
      kind: 'documentAddition',
      method,
      primaryKey: q.primaryKey ?? null,
      contentFile: file.uuid,
      documentsCount: written.documentsCount,
      payloadBytes: written.bytesWritten,
      allowIndexCreation: req.auth.canCreateIndex(uid),
      skipCreation,
      ...(written.valueError !== null ? { valueError: written.valueError } : {}),
    };
    try {
      return await enqueue(reply, uid, kind, q);
    } catch (err) {
      fs.rmSync(file.path, { force: true });
      throw err;
    }
  };

  const docsAuth = (action: string) => ({ config: { auth: { action, indexParam: 'indexUid' } } });

  app.post('/indexes/:indexUid/documents', docsAuth('documents.add'), addOrUpdate('replace'));
  app.put('/indexes/:indexUid/documents', docsAuth('documents.add'), addOrUpdate('update'));

  const page = (index: Index, uid: string, p: FetchDocuments) => browseDocuments(index, uid, p, ctx.instance.features.get());

  app.get('/indexes/:indexUid/documents', docsAuth('documents.get'), async (req) => {
    const uid = indexParam(req);
    const params = parseBrowseQuery(query(req));
    return page(requireIndex(ctx, uid), uid, params);
  });

  // JSON routes check their body before the index uid, as Meilisearch's extractors do
  app.post('/indexes/:indexUid/documents/fetch', docsAuth('documents.get'), async (req) => {
    checkParams(query(req), []);
    const params = parseFetchBody(await json(req));
    rejectUseNetwork(params.useNetwork, ctx.instance.features.get());
    const uid = indexParam(req);
    return page(requireIndex(ctx, uid), uid, params);
  });

  app.get('/indexes/:indexUid/documents/:documentId', docsAuth('documents.get'), async (req) => {
    const uid = indexParam(req);
    const { documentId } = req.params as { documentId: string };
    const { fields, retrieveVectors } = parseGetDocumentQuery(query(req));
    const index = requireIndex(ctx, uid);
    const id = index.internalId(documentId);
    const doc = id === undefined ? undefined : index.documentById(id);
    if (id === undefined || !doc) throw new ApiError('document_not_found', `Document \`${documentId}\` not found.`);
    const vectors = retrieveVectors ? documentVectors(index, id) : undefined;
    return present(doc, fields, retrieveVectors, index.fieldsOrder(), vectors);
  });

  app.delete('/indexes/:indexUid/documents/:documentId', docsAuth('documents.delete'), async (req, reply) => {
    const uid = indexParam(req);
    const q = query(req);
    checkParams(q, ['customMetadata']);
    const { documentId } = req.params as { documentId: string };
    return enqueue(reply, uid, { kind: 'documentDeletion', ids: [documentId] }, q);
  });

  app.post('/indexes/:indexUid/documents/delete-batch', docsAuth('documents.delete'), async (req, reply) => {
    const q = query(req);
    checkParams(q, ['customMetadata']);
    const body = await readJsonBody(req, { limit: ctx.payloadLimit, limitText: ctx.payloadLimitText });
    if (!Array.isArray(body.value)) throw notASequence(body);
    const ids = (body.value as unknown[]).map((v) => (typeof v === 'string' ? v : JSON.stringify(v)));
    const uid = indexParam(req);
    return enqueue(reply, uid, { kind: 'documentDeletion', ids }, q);
  });

  app.post('/indexes/:indexUid/documents/delete', docsAuth('documents.delete'), async (req, reply) => {
    const q = query(req);
    checkParams(q, ['customMetadata']);
    const body = expectObject(await json(req));
    checkFields(body, { known: ['filter'] });
    if (!('filter' in body)) throw new ApiError('missing_document_filter', 'Missing field `filter`');
    const filter = body.filter;
    if (filter === null) throw new ApiError('invalid_document_filter', 'Invalid syntax for the filter parameter: `expected String, Array, found: null`.');
    const uid = indexParam(req);
    if ((typeof filter === 'string' && filter.trim() === '') || (Array.isArray(filter) && filter.length === 0)) {
      throw new ApiError('invalid_document_filter', 'Sending an empty filter is forbidden.');
    }
    // syntax and feature gates now; filterability is checked by the task (documents.md §5.3)
    if (compileFilter(filter, 'documentsDelete', ctx.instance.features.get()) === null) {
      throw new ApiError('invalid_document_filter', 'Sending an empty filter is forbidden.');
    }
    return enqueue(reply, uid, { kind: 'documentDeletionByFilter', filter }, q);
  });

  app.delete('/indexes/:indexUid/documents', docsAuth('documents.delete'), async (req, reply) => {
    const uid = indexParam(req);
    const q = query(req);
    checkParams(q, ['customMetadata']);
    return enqueue(reply, uid, { kind: 'documentClear' }, q);
  });
}

function parseSkipCreation(raw: string): boolean {
  const lower = raw.toLowerCase();
  if (lower === 'true' || lower === 'false') return queryBoolean('skipCreation', lower, 'invalid_skip_creation');
  throw new ApiError('invalid_skip_creation', `skipCreation must be either \`true\` or \`false\`. Found: \`${raw}\``);
}

/** serde's error for a body that is not an array: at the `{` of a map, after any other value. */
function notASequence(body: ParsedJson & { bytes: Uint8Array }): ApiError {
  const at = body.value !== null && typeof body.value === 'object' ? body.start : body.end;
  const { line, column } = jsonPosition(body.bytes, at);
  return new ApiError('bad_request', `Json deserialize error: invalid type: ${serdeKind(body.value)}, expected a sequence at line ${line} column ${column}`);
}

function serdeKind(value: unknown): string {
  if (typeof value === 'string') return `string ${rustDebugString(value)}`;
  if (typeof value === 'number') return Number.isInteger(value) ? `integer \`${value}\`` : `floating point \`${value}\``;
  if (typeof value === 'boolean') return `boolean \`${value}\``;
  if (value === null) return 'null';
  return 'map';
}
