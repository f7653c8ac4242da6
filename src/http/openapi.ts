// `GET /openapi.json` (a Muninn extension, docs/compat.md): an OpenAPI 3.1 document of every route
// the server registered, built from the registrations themselves (an `onRoute` hook collects method,
// path and the action the route's auth requires) and from the field lists the request parsers
// check bodies and query strings against. A route registered without an entry in DOCS fails the
// test that compares the two (test/http/openapi.test.ts), so the document cannot drift.
//
// Muninn validates requests with its own parsers, not JSON Schema, because Meilisearch's error
// messages (deserr's) must come out word for word (decision 0012); the schemas here describe the
// fields and their kinds for clients and tools, they are not what validation runs.
import type { FastifyInstance, RouteOptions } from 'fastify';
import { SEARCH_BODY_FIELDS } from '../api/search/query.ts';
import { FACET_SEARCH_QUERY_FIELDS } from '../api/search/facets-search.ts';
import { SIMILAR_BODY_FIELDS, SIMILAR_PARAMS } from '../api/search/similar.ts';
import { FETCH_FIELDS } from '../api/documents/fetch.ts';
import { SEARCH_PARAMS } from '../api/search/query-get.ts';
import { MULTI_QUERY_FIELDS } from '../api/search/multi-query.ts';
import { CREATE_KEY_FIELDS, LIST_KEYS_PARAMS, UPDATE_KEY_FIELDS } from '../api/keys/index.ts';
import { WEBHOOK_FIELDS } from '../api/webhooks/index.ts';
import { FILTER_PARAMS, LIST_PARAMS } from '../api/tasks/query.ts';
import { SETTING_NAMES, SUB_ROUTES } from '../api/settings/index.ts';
import { API_VERSION } from '../api/version.ts';

interface RouteDoc {
  summary: string;
  /** the status of a success */
  status: number;
  /** the JSON body's fields, `documents` (JSON, NDJSON or CSV), `object` (any object) */
  body?: readonly string[] | 'documents' | 'object';
  query?: readonly string[];
  /** the component schema of the success body (none: described by `summary` only) */
  returns?: 'TaskSummary' | 'Task' | 'Tasks' | 'Key' | 'Keys' | 'Webhook' | 'Webhooks' | 'Index' | 'Indexes' | 'Search' | 'Settings';
}

const TASK: Pick<RouteDoc, 'status' | 'returns'> = { status: 202, returns: 'TaskSummary' };
const TASK_FILTERS = [...FILTER_PARAMS];

/** Every route but the settings sub-routes (generated below), by `METHOD /path` as fastify registers it. */
const DOCS: Record<string, RouteDoc> = {
  'GET /': { summary: 'The search dashboard (with `--env development`)', status: 200 },
  'GET /openapi.json': { summary: 'This document', status: 200 },
  'GET /health': { summary: 'Whether the server is available', status: 200 },
  'GET /version': { summary: 'The API version and build', status: 200 },
  'GET /stats': { summary: 'Database size and the stats of every index', status: 200 },
  'GET /metrics': { summary: 'Prometheus metrics (experimental `metrics`)', status: 200 },
  'GET /experimental-features': { summary: 'The experimental features', status: 200 },
  'PATCH /experimental-features': { summary: 'Switch experimental features on or off', status: 200, body: 'object' },
  'POST /swap-indexes': { summary: 'Swap or rename indexes', ...TASK, body: 'object' },
  'POST /snapshots': { summary: 'Create a snapshot', ...TASK },
  'POST /dumps': { summary: 'Create a dump', ...TASK },
  'POST /export': { summary: 'Send indexes to another server', status: 200, returns: 'TaskSummary', body: ['url', 'apiKey', 'payloadSize', 'indexes'] },
  'POST /multi-search': { summary: 'Several searches, or one federated search', status: 200, body: ['queries', 'federation'] },
  'POST /keys': { summary: 'Create an API key', status: 201, body: CREATE_KEY_FIELDS, returns: 'Key' },
  'GET /keys': { summary: 'List API keys', status: 200, query: LIST_KEYS_PARAMS, returns: 'Keys' },
  'GET /keys/:key': { summary: 'Get an API key by uid or value', status: 200, returns: 'Key' },
  'PATCH /keys/:key': { summary: 'Update the name or description of a key', status: 200, body: UPDATE_KEY_FIELDS, returns: 'Key' },
  'DELETE /keys/:key': { summary: 'Delete an API key', status: 204 },
  'GET /indexes': { summary: 'List indexes', status: 200, query: ['offset', 'limit'], returns: 'Indexes' },
  'POST /indexes': { summary: 'Create an index', ...TASK, body: ['uid', 'primaryKey'] },
  'GET /indexes/:indexUid': { summary: 'Get an index', status: 200, returns: 'Index' },
  'PATCH /indexes/:indexUid': { summary: 'Change the primary key or uid of an index', ...TASK, body: ['primaryKey', 'uid'] },
  'DELETE /indexes/:indexUid': { summary: 'Delete an index', ...TASK },
  'POST /indexes/:indexUid/compact': { summary: 'Compact the files of an index', ...TASK },
  'GET /indexes/:indexUid/stats': { summary: 'The stats of an index', status: 200 },
  'GET /indexes/:indexUid/settings': { summary: 'Every setting of an index', status: 200, returns: 'Settings' },
  'PATCH /indexes/:indexUid/settings': { summary: 'Update settings', ...TASK, body: SETTING_NAMES },
  'DELETE /indexes/:indexUid/settings': { summary: 'Reset every setting', ...TASK },
  'GET /indexes/:indexUid/search': { summary: 'Search (parameters in the query string)', status: 200, query: SEARCH_PARAMS, returns: 'Search' },
  'POST /indexes/:indexUid/search': { summary: 'Search', status: 200, body: SEARCH_BODY_FIELDS, returns: 'Search' },
  'GET /indexes/:indexUid/similar': { summary: 'Documents similar to one document (parameters in the query string)', status: 200, query: SIMILAR_PARAMS },
  'POST /indexes/:indexUid/similar': { summary: 'Documents similar to one document', status: 200, body: SIMILAR_BODY_FIELDS },
  'POST /indexes/:indexUid/facet-search': { summary: 'Search the values of a facet', status: 200, body: ['facetName', 'facetQuery', 'exhaustiveFacetCount', ...FACET_SEARCH_QUERY_FIELDS] },
  'POST /indexes/:indexUid/fields': { summary: 'The fields of an index and what they are used for', status: 200, body: 'object' },
  'GET /indexes/:indexUid/documents': { summary: 'Browse documents', status: 200, query: FETCH_FIELDS },
  'POST /indexes/:indexUid/documents': { summary: 'Add or replace documents', ...TASK, body: 'documents', query: ['primaryKey', 'csvDelimiter', 'customMetadata'] },
  'PUT /indexes/:indexUid/documents': { summary: 'Add or update documents', ...TASK, body: 'documents', query: ['primaryKey', 'csvDelimiter', 'customMetadata'] },
  'DELETE /indexes/:indexUid/documents': { summary: 'Delete every document', ...TASK },
  'POST /indexes/:indexUid/documents/fetch': { summary: 'Browse documents (parameters in the body)', status: 200, body: FETCH_FIELDS },
  'POST /indexes/:indexUid/documents/delete': { summary: 'Delete the documents a filter matches', ...TASK, body: ['filter'] },
  'POST /indexes/:indexUid/documents/delete-batch': { summary: 'Delete documents by id', ...TASK, body: 'object' },
  'GET /indexes/:indexUid/documents/:documentId': { summary: 'Get a document', status: 200, query: ['fields', 'retrieveVectors'] },
  'DELETE /indexes/:indexUid/documents/:documentId': { summary: 'Delete a document', ...TASK },
  'GET /tasks': { summary: 'List tasks', status: 200, query: [...LIST_PARAMS, ...TASK_FILTERS], returns: 'Tasks' },
  'DELETE /tasks': { summary: 'Delete finished tasks', ...TASK, query: TASK_FILTERS },
  'POST /tasks/cancel': { summary: 'Cancel enqueued or processing tasks', ...TASK, query: TASK_FILTERS },
  'POST /tasks/compact': { summary: 'Compact the task queue (experimental `taskQueueCompactionRoute`)', status: 200 },
  'GET /tasks/:taskUid': { summary: 'Get a task', status: 200, returns: 'Task' },
  'GET /tasks/:taskUid/documents': { summary: 'The documents of an enqueued task (experimental `getTaskDocumentsRoute`)', status: 200 },
  'GET /batches': { summary: 'List batches', status: 200, query: [...LIST_PARAMS, ...TASK_FILTERS] },
  'GET /batches/:batchUid': { summary: 'Get a batch', status: 200 },
  'GET /webhooks': { summary: 'List webhooks', status: 200, returns: 'Webhooks' },
  'POST /webhooks': { summary: 'Create a webhook', status: 201, body: WEBHOOK_FIELDS, returns: 'Webhook' },
  'GET /webhooks/:uuid': { summary: 'Get a webhook', status: 200, returns: 'Webhook' },
  'PATCH /webhooks/:uuid': { summary: 'Update a webhook', status: 200, body: WEBHOOK_FIELDS, returns: 'Webhook' },
  'DELETE /webhooks/:uuid': { summary: 'Delete a webhook', status: 204 },
  'POST /logs/stream': { summary: 'Stream log lines (experimental `logsRoute`)', status: 200, body: ['target', 'mode', 'profileMemory'] },
  'DELETE /logs/stream': { summary: 'End the log stream', status: 204 },
  'POST /render-template': { summary: 'Render a document template with a document (experimental `renderRoute`)', status: 200, body: ['template', 'input'] },
  'POST /logs/stderr': { summary: 'Change the filter of the lines written to stderr', status: 204, body: ['target'] },
  'POST /indexes/:indexUid/documents/edit': { summary: 'Edit documents with a function (experimental `editDocumentsByFunction`; not supported by Muninn)', status: 400, body: ['filter', 'context', 'function'] },
  'GET /network': { summary: 'The network of remote instances (experimental `network`; Muninn has none)', status: 200 },
  'PATCH /network': { summary: 'Configure remote instances (experimental `network`; not supported by Muninn)', status: 400 },
  'GET /chats': { summary: 'List chat workspaces (experimental `chatCompletions`; Muninn has none)', status: 200, query: ['offset', 'limit'] },
  'GET /chats/:workspace': { summary: 'Get a chat workspace (experimental `chatCompletions`)', status: 404 },
  'DELETE /chats/:workspace': { summary: 'Delete a chat workspace (experimental `chatCompletions`)', status: 404 },
  'GET /chats/:workspace/settings': { summary: 'The settings of a chat workspace (experimental `chatCompletions`)', status: 404 },
  'PATCH /chats/:workspace/settings': { summary: 'Configure a chat workspace (experimental `chatCompletions`; not supported by Muninn)', status: 400 },
  'DELETE /chats/:workspace/settings': { summary: 'Reset a chat workspace (experimental `chatCompletions`)', status: 404 },
  'POST /chats/:workspace/chat/completions': { summary: 'Chat completions (experimental `chatCompletions`; not supported by Muninn)', status: 400 },
};

for (const { route, setting, verb } of SUB_ROUTES) {
  const path = `/indexes/:indexUid/settings/${route}`;
  DOCS[`GET ${path}`] = { summary: `The \`${setting}\` setting`, status: 200 };
  DOCS[`${verb} ${path}`] = { summary: `Update the \`${setting}\` setting`, ...TASK, body: 'object' };
  DOCS[`DELETE ${path}`] = { summary: `Reset the \`${setting}\` setting`, ...TASK };
}

interface Registered {
  method: string;
  url: string;
  action: string | undefined;
}

/** Collects the routes registered after it, for the document and its test. */
export function collectRoutes(app: FastifyInstance): Registered[] {
  const routes: Registered[] = [];
  app.addHook('onRoute', (opts: RouteOptions) => {
    const methods = Array.isArray(opts.method) ? opts.method : [opts.method];
    const config = opts.config as { auth?: { action?: string }; methodNotAllowed?: boolean } | undefined;
    // the empty 405s of app.ts for literal paths that a parametric route would take
    if (config?.methodNotAllowed) return;
    const auth = config?.auth;
    for (const method of methods) {
      // HEAD routes are added by fastify beside GET ones; OPTIONS `*` answers CORS preflights
      if (method === 'HEAD' || method === 'OPTIONS') continue;
      routes.push({ method, url: opts.url, action: auth?.action });
    }
  });
  return routes;
}

/** The routes registered without an entry in DOCS (the test wants none). */
export function undocumented(routes: readonly Registered[]): string[] {
  return routes.map((r) => `${r.method} ${r.url}`).filter((id) => DOCS[id] === undefined);
}

const json = (schema: object) => ({ 'application/json': { schema } });
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const fieldsObject = (fields: readonly string[]) => ({ type: 'object', properties: Object.fromEntries(fields.map((f) => [f, {}])) });

/** The OpenAPI 3.1 document of the registered routes. */
export function openApiDocument(routes: readonly Registered[]): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of routes) {
    const doc = DOCS[`${r.method} ${r.url}`];
    if (doc === undefined) continue;
    const path = r.url.replace(/:([A-Za-z]+)/g, '{$1}');
    const parameters: unknown[] = [...r.url.matchAll(/:([A-Za-z]+)/g)].map((m) => ({ name: m[1], in: 'path', required: true, schema: { type: 'string' } }));
    for (const q of doc.query ?? []) parameters.push({ name: q, in: 'query', required: false, schema: { type: 'string' } });
    const op: Record<string, unknown> = {
      operationId: `${r.method.toLowerCase()}${path.replace(/[{}]/g, '').replace(/(^|[/-])([a-z])/g, (_m, _s, c: string) => c.toUpperCase())}`,
      summary: doc.summary,
      tags: [r.url.split('/')[1] || 'dashboard'],
      'x-meilisearch-action': r.action ?? null,
      ...(parameters.length > 0 ? { parameters } : {}),
      responses: {
        [doc.status]: { description: doc.summary, ...(doc.returns ? { content: json(ref(doc.returns)) } : doc.status === 204 ? {} : { content: json({}) }) },
        default: { description: 'An error', content: json(ref('Error')) },
      },
    };
    if (r.action === 'public' || r.action === undefined) op.security = [];
    if (doc.body === 'documents') {
      op.requestBody = {
        required: true,
        content: { ...json({ oneOf: [{ type: 'array', items: { type: 'object' } }, { type: 'object' }] }), 'application/x-ndjson': { schema: { type: 'string' } }, 'text/csv': { schema: { type: 'string' } } },
      };
    } else if (doc.body === 'object') op.requestBody = { required: true, content: json({ type: 'object' }) };
    else if (doc.body !== undefined) op.requestBody = { required: true, content: json(fieldsObject(doc.body)) };
    (paths[path] ??= {})[r.method.toLowerCase()] = op;
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Muninn', version: API_VERSION, description: 'The Meilisearch HTTP API as Muninn serves it.' },
    security: [{ bearer: [] }],
    paths,
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'The master key, an API key, or a tenant token' } },
      schemas: {
        Error: { type: 'object', required: ['message', 'code', 'type', 'link'], properties: { message: { type: 'string' }, code: { type: 'string' }, type: { type: 'string', enum: ['invalid_request', 'internal', 'auth', 'system'] }, link: { type: 'string' } } },
        TaskSummary: {
          type: 'object',
          properties: { taskUid: { type: 'integer' }, indexUid: { type: ['string', 'null'] }, status: { type: 'string' }, type: { type: 'string' }, enqueuedAt: { type: 'string', format: 'date-time' }, customMetadata: { type: 'string' } },
        },
        Task: {
          type: 'object',
          properties: {
            uid: { type: 'integer' }, batchUid: { type: ['integer', 'null'] }, indexUid: { type: ['string', 'null'] }, status: { type: 'string' }, type: { type: 'string' },
            canceledBy: { type: ['integer', 'null'] }, details: { type: 'object' }, error: { oneOf: [{ type: 'null' }, ref('Error')] }, duration: { type: ['string', 'null'] },
            enqueuedAt: { type: 'string' }, startedAt: { type: ['string', 'null'] }, finishedAt: { type: ['string', 'null'] }, customMetadata: { type: 'string' },
          },
        },
        Tasks: { type: 'object', properties: { results: { type: 'array', items: ref('Task') }, total: { type: 'integer' }, limit: { type: 'integer' }, from: { type: ['integer', 'null'] }, next: { type: ['integer', 'null'] } } },
        Key: { type: 'object', properties: Object.fromEntries(['name', 'description', 'key', 'uid', 'actions', 'indexes', 'expiresAt', 'createdAt', 'updatedAt'].map((f) => [f, {}])) },
        Keys: { type: 'object', properties: { results: { type: 'array', items: ref('Key') }, offset: { type: 'integer' }, limit: { type: 'integer' }, total: { type: 'integer' } } },
        Webhook: { type: 'object', properties: { uuid: { type: 'string', format: 'uuid' }, isEditable: { type: 'boolean' }, url: { type: 'string' }, headers: { type: 'object', additionalProperties: { type: 'string' } } } },
        Webhooks: { type: 'object', properties: { results: { type: 'array', items: ref('Webhook') } } },
        Index: { type: 'object', properties: { uid: { type: 'string' }, createdAt: { type: 'string' }, updatedAt: { type: 'string' }, primaryKey: { type: ['string', 'null'] } } },
        Indexes: { type: 'object', properties: { results: { type: 'array', items: ref('Index') }, offset: { type: 'integer' }, limit: { type: 'integer' }, total: { type: 'integer' } } },
        Search: {
          type: 'object',
          properties: Object.fromEntries(['hits', 'query', 'processingTimeMs', 'limit', 'offset', 'estimatedTotalHits', 'hitsPerPage', 'page', 'totalHits', 'totalPages', 'facetDistribution', 'facetStats', 'requestUid', 'performanceDetails', 'semanticHitCount'].map((f) => [f, {}])),
        },
        Settings: { type: 'object', properties: Object.fromEntries(SETTING_NAMES.map((f) => [f, {}])) },
        SearchQuery: fieldsObject(SEARCH_BODY_FIELDS),
        MultiSearchQuery: fieldsObject(MULTI_QUERY_FIELDS),
      },
    },
  };
}

/** `GET /openapi.json`: public, like `/health` (it holds no data), built once from what was registered. */
export function registerOpenApiRoute(app: FastifyInstance, routes: readonly Registered[]): void {
  let doc: Record<string, unknown> | null = null;
  app.get('/openapi.json', { config: { auth: { action: 'public' } } }, async () => (doc ??= openApiDocument(routes)));
}
