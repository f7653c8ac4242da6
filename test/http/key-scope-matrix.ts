// The route × key matrix of key-scope.test.ts, runnable against any server that speaks the
// Meilisearch API: the test runs it on Muninn, key-scope-probe.ts (by hand) on the real binary,
// whose answers are the expected table written in the test.
//
// Keys: indexes ["movies"], ["mov*"] and ["*"], each with actions ["*"], ["*.get"] and the one
// action the route needs. Targets of routes that name an index (in the path or the body):
// `movies` (exists, every key may see it), `books` (exists, only `*` keys) and `moviez` (does not
// exist, matches `mov*`), which shows whether the scope check comes before the 404.
//
// Order: every read first, on a fixed state (movies and books with two documents each, default
// settings, moviez absent); then every write, whose answers do not depend on the state (they
// enqueue tasks that succeed or fail later).

import { SUB_ROUTES } from '../../src/api/settings/index.ts';

export type Call = (method: string, path: string, init: { body?: unknown; key: string }) => Promise<{ status: number; body: any }>;

export const SCOPES = ['movies', 'mov*', '*'] as const;
export const KINDS = ['*', '*.get', 'one'] as const;
export const TARGETS = ['movies', 'books', 'moviez'] as const;
type Target = (typeof TARGETS)[number];

interface State {
  /** a key every `/keys/{key}` read and update names */
  fixtureKey: string;
  /** settings of a fresh index, by name (bodies of the settings sub-routes) */
  defaults: Record<string, unknown>;
  taskOf: Record<Target, number>;
  batchOf: Record<Target, number>;
  /** a key made for one DELETE /keys/{key} */
  throwawayKey(): Promise<string>;
}

export interface RouteCase {
  /** method and path pattern, e.g. `GET /indexes/{uid}` */
  id: string;
  /** the action of auth-keys.md §6 */
  action: string;
  write: boolean;
  /** whether the route names an index (`{uid}` in the path, or in the body or query) */
  targeted: boolean;
  request(target: Target, s: State): Promise<{ path: string; body?: unknown }> | { path: string; body?: unknown };
  /** what of a 2xx body the table records (which indexes a list shows) */
  summary?(body: any): string;
}

const NO_WEBHOOK = 'e6883474-884a-44d6-b490-af574022876b';
const sorted = (xs: Iterable<unknown>) => [...new Set([...xs].map(String))].sort().join(',');
const indexList = (b: any) => `[${sorted((b.results ?? []).map((i: any) => i.uid))}]`;
const taskIndexes = (b: any) => `[${sorted((b.results ?? []).map((t: any) => t.indexUid))}]`;
const batchIndexes = (b: any) => `[${sorted((b.results ?? []).flatMap((x: any) => Object.keys(x.stats?.indexUids ?? {})))}]`;

function route(id: string, action: string, request: RouteCase['request'], opts: { summary?: RouteCase['summary']; targeted?: boolean } = {}): RouteCase {
  const method = id.split(' ')[0]!;
  return { id, action, write: method !== 'GET' && !READ_POSTS.has(id), targeted: opts.targeted ?? /\{(task of |batch of )?uid\}/.test(id), request, ...(opts.summary ? { summary: opts.summary } : {}) };
}
const READ_POSTS = new Set([
  'POST /indexes/{uid}/documents/fetch', 'POST /indexes/{uid}/search', 'POST /indexes/{uid}/facet-search',
  'POST /indexes/{uid}/fields', 'POST /multi-search', 'POST /multi-search (federated)', 'POST /indexes/{uid}/similar',
]);

/** Every route Muninn serves (src/http/routes), with a valid request. */
export const ROUTES: RouteCase[] = [
  route('GET /', 'public', () => ({ path: '/' })),
  route('GET /health', 'public', () => ({ path: '/health' })),
  route('GET /version', 'version', () => ({ path: '/version' })),
  route('GET /stats', 'stats.get', () => ({ path: '/stats' }), { summary: (b) => `{${sorted(Object.keys(b.indexes))}}` }),
  route('GET /experimental-features', 'experimental.get', () => ({ path: '/experimental-features' })),
  route('PATCH /experimental-features', 'experimental.update', () => ({ path: '/experimental-features', body: {} })),

  route('POST /keys', 'keys.create', () => ({ path: '/keys', body: { actions: ['*'], indexes: ['*'], expiresAt: null } })),
  route('GET /keys', 'keys.get', () => ({ path: '/keys' })),
  route('GET /keys/{key}', 'keys.get', (_t, s) => ({ path: `/keys/${s.fixtureKey}` })),
  route('PATCH /keys/{key}', 'keys.update', (_t, s) => ({ path: `/keys/${s.fixtureKey}`, body: { name: 'fixture' } })),
  route('DELETE /keys/{key}', 'keys.delete', async (_t, s) => ({ path: `/keys/${await s.throwawayKey()}` })),

  route('GET /indexes', 'indexes.get', () => ({ path: '/indexes' }), { summary: indexList }),
  route('POST /indexes', 'indexes.create', (t) => ({ path: '/indexes', body: { uid: t, primaryKey: 'id' } }), { targeted: true }),
  route('GET /indexes/{uid}', 'indexes.get', (t) => ({ path: `/indexes/${t}` })),
  route('PATCH /indexes/{uid}', 'indexes.update', (t) => ({ path: `/indexes/${t}`, body: { primaryKey: 'id' } })),
  route('DELETE /indexes/{uid}', 'indexes.delete', (t) => ({ path: `/indexes/${t}` })),
  route('GET /indexes/{uid}/stats', 'stats.get', (t) => ({ path: `/indexes/${t}/stats` })),
  route('POST /indexes/{uid}/fields', 'fields.post', (t) => ({ path: `/indexes/${t}/fields`, body: {} })),
  route('POST /swap-indexes', 'indexes.swap', (t) => ({ path: '/swap-indexes', body: [{ indexes: [t, 'movies'] }] }), { targeted: true }),

  route('POST /indexes/{uid}/documents', 'documents.add', (t) => ({ path: `/indexes/${t}/documents`, body: [{ id: 9, title: 'Vertigo' }] })),
  route('PUT /indexes/{uid}/documents', 'documents.add', (t) => ({ path: `/indexes/${t}/documents`, body: [{ id: 9, genre: 'thriller' }] })),
  route('GET /indexes/{uid}/documents', 'documents.get', (t) => ({ path: `/indexes/${t}/documents` })),
  route('POST /indexes/{uid}/documents/fetch', 'documents.get', (t) => ({ path: `/indexes/${t}/documents/fetch`, body: {} })),
  route('GET /indexes/{uid}/documents/{id}', 'documents.get', (t) => ({ path: `/indexes/${t}/documents/1` })),
  route('DELETE /indexes/{uid}/documents/{id}', 'documents.delete', (t) => ({ path: `/indexes/${t}/documents/999` })),
  route('POST /indexes/{uid}/documents/delete-batch', 'documents.delete', (t) => ({ path: `/indexes/${t}/documents/delete-batch`, body: [999] })),
  route('POST /indexes/{uid}/documents/delete', 'documents.delete', (t) => ({ path: `/indexes/${t}/documents/delete`, body: { filter: 'id = 999' } })),
  route('DELETE /indexes/{uid}/documents', 'documents.delete', (t) => ({ path: `/indexes/${t}/documents` })),

  route('GET /indexes/{uid}/search', 'search', (t) => ({ path: `/indexes/${t}/search?q=carol` })),
  route('POST /indexes/{uid}/search', 'search', (t) => ({ path: `/indexes/${t}/search`, body: { q: 'carol' } })),
  route('POST /indexes/{uid}/facet-search', 'search', (t) => ({ path: `/indexes/${t}/facet-search`, body: { facetName: 'genre' } })),
  route('GET /indexes/{uid}/similar', 'search', (t) => ({ path: `/indexes/${t}/similar?id=1&embedder=default` })),
  route('POST /indexes/{uid}/similar', 'search', (t) => ({ path: `/indexes/${t}/similar`, body: { id: 1, embedder: 'default' } })),
  route('POST /multi-search', 'search', (t) => ({ path: '/multi-search', body: { queries: [{ indexUid: t, q: 'carol' }] } }), {
    targeted: true,
    summary: (b) => `[${(b.results ?? []).map((r: any) => r.indexUid).join(',')}]`,
  }),
  route('POST /multi-search (federated)', 'search', (t) => ({ path: '/multi-search', body: { federation: {}, queries: [{ indexUid: t, q: 'carol' }] } }), {
    targeted: true,
    summary: (b) => `${b.estimatedTotalHits} hits`,
  }),

  route('GET /indexes/{uid}/settings', 'settings.get', (t) => ({ path: `/indexes/${t}/settings` })),
  route('PATCH /indexes/{uid}/settings', 'settings.update', (t) => ({ path: `/indexes/${t}/settings`, body: {} })),
  route('DELETE /indexes/{uid}/settings', 'settings.update', (t) => ({ path: `/indexes/${t}/settings` })),
  ...SUB_ROUTES.flatMap(({ route: path, setting: name, verb }) => [
    route(`GET /indexes/{uid}/settings/${path}`, 'settings.get', (t) => ({ path: `/indexes/${t}/settings/${path}` })),
    route(`${verb} /indexes/{uid}/settings/${path}`, 'settings.update', (t, s) => ({ path: `/indexes/${t}/settings/${path}`, body: s.defaults[name] ?? null })),
    route(`DELETE /indexes/{uid}/settings/${path}`, 'settings.update', (t) => ({ path: `/indexes/${t}/settings/${path}` })),
  ]),

  route('GET /tasks', 'tasks.get', () => ({ path: '/tasks' }), { summary: taskIndexes }),
  route('GET /tasks?indexUids={uid}', 'tasks.get', (t) => ({ path: `/tasks?indexUids=${t}` }), { summary: taskIndexes }),
  route('GET /tasks/{task of uid}', 'tasks.get', (t, s) => ({ path: `/tasks/${s.taskOf[t]}` })),
  route('GET /tasks/{task of uid}/documents', 'tasks.get', (t, s) => ({ path: `/tasks/${s.taskOf[t]}/documents` })),
  route('POST /tasks/cancel', 'tasks.cancel', () => ({ path: '/tasks/cancel?uids=999999' })),
  route('POST /tasks/cancel?indexUids={uid}', 'tasks.cancel', (t) => ({ path: `/tasks/cancel?uids=999999&indexUids=${t}` })),
  route('DELETE /tasks', 'tasks.delete', () => ({ path: '/tasks?uids=999999' })),
  route('DELETE /tasks?indexUids={uid}', 'tasks.delete', (t) => ({ path: `/tasks?uids=999999&indexUids=${t}` })),
  route('GET /batches', 'tasks.get', () => ({ path: '/batches' }), { summary: batchIndexes }),
  route('GET /batches?indexUids={uid}', 'tasks.get', (t) => ({ path: `/batches?indexUids=${t}` }), { summary: batchIndexes }),
  route('GET /batches/{batch of uid}', 'tasks.get', (t, s) => ({ path: `/batches/${s.batchOf[t]}` })),
  // the experimental feature is off: the answer shows the authorization only
  route('POST /tasks/compact', 'tasks.compact', () => ({ path: '/tasks/compact' })),
  route('GET /metrics', 'metrics.get', () => ({ path: '/metrics' })),
  // the logs feature is off: the answer shows the authorization only
  route('POST /logs/stream', 'metrics.get', () => ({ path: '/logs/stream', body: { target: 'info' } })),
  route('DELETE /logs/stream', 'metrics.get', () => ({ path: '/logs/stream' })),
  route('POST /logs/stderr', 'metrics.get', () => ({ path: '/logs/stderr', body: { target: 'info' } })),
  // the render feature is off: the answer shows the authorization only
  route('POST /render-template', 'settings.get', () => ({ path: '/render-template', body: { template: { kind: 'inlineDocumentTemplate', inline: 'x' } } })),
  // a webhook that does not exist: the answer shows the authorization only (404 once through)
  route('GET /webhooks', 'webhooks.get', () => ({ path: '/webhooks' })),
  route('POST /webhooks', 'webhooks.create', () => ({ path: '/webhooks', body: { url: 'http://127.0.0.1:9/hook' } })),
  route('GET /webhooks/{uuid}', 'webhooks.get', () => ({ path: `/webhooks/${NO_WEBHOOK}` })),
  route('PATCH /webhooks/{uuid}', 'webhooks.update', () => ({ path: `/webhooks/${NO_WEBHOOK}`, body: { url: 'http://127.0.0.1:9/other' } })),
  route('DELETE /webhooks/{uuid}', 'webhooks.delete', () => ({ path: `/webhooks/${NO_WEBHOOK}` })),

  route('POST /indexes/{uid}/compact', 'indexes.compact', (t) => ({ path: `/indexes/${t}/compact` })),
  route('POST /dumps', 'dumps.create', () => ({ path: '/dumps' })),
  route('POST /snapshots', 'snapshots.create', () => ({ path: '/snapshots' })),
  // no index matches: the export sends nothing; the answer shows the authorization only
  route('POST /export', 'export', () => ({ path: '/export', body: { url: 'http://127.0.0.1:9', indexes: { 'nomatch*': {} } } })),
];

/** One answer as the table writes it: `200`, `403 invalid_api_key`, `200 [movies]`... */
function cell(res: { status: number; body: any }, rc: RouteCase): string {
  if (res.status < 300) return rc.summary && res.body ? `${res.status} ${rc.summary(res.body)}` : String(res.status);
  const code = res.body?.code ?? '?';
  // the two 403 texts of auth-keys.md §2: index out of scope, or key not allowed
  const scope = code === 'invalid_api_key' && /^The API key cannot acces the index/.test(res.body.message) ? ' (index)' : '';
  return `${res.status} ${code}${scope}`;
}

/** The answers of one route: one line per key, one cell per target. */
export type Table = Record<string, string>;

const DOCS = {
  movies: [{ id: 1, title: 'Carol', genre: 'drama' }, { id: 2, title: 'Alien', genre: 'horror' }],
  books: [{ id: 1, title: 'Carol', genre: 'novel' }, { id: 2, title: 'Dune', genre: 'sf' }],
};

async function waitForTasks(call: Call, master: string): Promise<void> {
  for (let i = 0; i < 6000; i++) {
    const res = await call('GET', '/tasks?statuses=enqueued,processing&limit=1', { key: master });
    if (res.body.total === 0) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error('tasks still pending after 6000 polls');
}

/** Runs every route with every key on a fresh server; returns the table by route id. */
export async function runMatrix(call: Call, master: string): Promise<Table> {
  const ok = async (method: string, path: string, body?: unknown) => {
    const res = await call(method, path, { key: master, ...(body !== undefined ? { body } : {}) });
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  await ok('PATCH', '/experimental-features', { getTaskDocumentsRoute: true });
  for (const [uid, docs] of Object.entries(DOCS)) {
    await ok('POST', '/indexes', { uid, primaryKey: 'id' });
    await ok('POST', `/indexes/${uid}/documents`, docs);
  }
  await waitForTasks(call, master);
  const task = async (t: Target) => (await ok('GET', `/tasks?indexUids=${t}&limit=1`)).results[0];
  const state: State = {
    fixtureKey: (await ok('POST', '/keys', { name: 'fixture', actions: ['search'], indexes: ['*'], expiresAt: null })).uid,
    defaults: await ok('GET', '/indexes/movies/settings'),
    taskOf: { movies: (await task('movies')).uid, books: (await task('books')).uid, moviez: 999999 },
    batchOf: { movies: (await task('movies')).batchUid, books: (await task('books')).batchUid, moviez: 999999 },
    throwawayKey: async () => (await ok('POST', '/keys', { actions: ['search'], indexes: ['*'], expiresAt: null })).uid,
  };

  // key per scope and actions; a refused creation is kept as its answer
  const keys = new Map<string, { key: string } | { refused: string }>();
  const keyFor = async (scope: string, actions: string) => {
    const id = `${scope} ${actions}`;
    let k = keys.get(id);
    if (!k) {
      const res = await call('POST', '/keys', { key: master, body: { actions: [actions], indexes: [scope], expiresAt: null } });
      k = res.status === 201 ? { key: res.body.key } : { refused: `${res.status} ${res.body.code}` };
      keys.set(id, k);
    }
    return k;
  };

  const table: Table = {};
  for (const rc of [...ROUTES.filter((r) => !r.write), ...ROUTES.filter((r) => r.write)]) {
    const lines: string[] = [];
    for (const scope of SCOPES) {
      for (const kind of KINDS) {
        const k = await keyFor(scope, kind === 'one' ? (rc.action === 'public' ? 'search' : rc.action) : kind);
        const label = `${scope} ${kind === 'one' ? rc.action : kind}`;
        if ('refused' in k) {
          lines.push(`${label}: key refused ${k.refused}`);
          continue;
        }
        const cells: string[] = [];
        for (const target of rc.targeted ? TARGETS : (['movies'] as const)) {
          const { path, body } = await rc.request(target, state);
          cells.push(cell(await call(rc.id.split(' ')[0]!, path, { key: k.key, ...(body !== undefined ? { body } : {}) }), rc));
        }
        lines.push(`${label}: ${cells.join(' | ')}`);
      }
    }
    table[rc.id] = lines.join('\n');
  }
  await waitForTasks(call, master);
  return table;
}
