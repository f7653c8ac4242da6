// Keys stay in their scope (auth-keys.md §2, §3, §6), route by route. Properties checked:
// 1. every route Muninn serves, called with keys scoped to ["movies"], ["mov*"] and ["*"], each
//    holding ["*"], ["*.get"] or the route's one action, answers what Meilisearch 1.50 answers
//    (status, error code, which of the two 403 texts, which indexes a list shows);
// 2. an index-scoped key never passes a route of a global action (keys, version, experimental
//    features), even through `*` or `*.get`, and cannot be created holding one;
// 3. for an index outside the key's scope the 403 comes before the 404 of a missing index
//    (`moviez` does not exist: 403 for ["movies"], 404 / 202 for ["mov*"] and ["*"]).
// The expected table below was printed by key-scope-probe.ts against the real binary
// (/tmp/meilisearch 1.50.0, 2026-11-28); see key-scope-matrix.ts for the requests and the order.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { runMatrix, ROUTES, type Table } from './key-scope-matrix.ts';
import { startTestServer, type TestServer } from './helpers.ts';

// [route ids, one line per key "scope actions: answer per target (movies | books | moviez)"]
const EXPECTED: [string[], string][] = [
  [
    [
      'GET /',
      'GET /health',
    ],
    `
      movies *: 200
      movies *.get: 200
      movies public: 200
      mov* *: 200
      mov* *.get: 200
      mov* public: 200
      * *: 200
      * *.get: 200
      * public: 200
    `,
  ],
  [
    [
      'GET /version',
    ],
    `
      movies *: 403 invalid_api_key
      movies *.get: 403 invalid_api_key
      movies version: key refused 400 index_scoped_api_key_with_global_action
      mov* *: 403 invalid_api_key
      mov* *.get: 403 invalid_api_key
      mov* version: key refused 400 index_scoped_api_key_with_global_action
      * *: 200
      * *.get: 200
      * version: 200
    `,
  ],
  [
    [
      'GET /stats',
    ],
    `
      movies *: 200 {movies}
      movies *.get: 200 {movies}
      movies stats.get: 200 {movies}
      mov* *: 200 {movies}
      mov* *.get: 200 {movies}
      mov* stats.get: 200 {movies}
      * *: 200 {books,movies}
      * *.get: 200 {books,movies}
      * stats.get: 200 {books,movies}
    `,
  ],
  [
    [
      'GET /experimental-features',
    ],
    `
      movies *: 403 invalid_api_key
      movies *.get: 403 invalid_api_key
      movies experimental.get: key refused 400 index_scoped_api_key_with_global_action
      mov* *: 403 invalid_api_key
      mov* *.get: 403 invalid_api_key
      mov* experimental.get: key refused 400 index_scoped_api_key_with_global_action
      * *: 200
      * *.get: 200
      * experimental.get: 200
    `,
  ],
  [
    [
      'GET /keys',
      'GET /keys/{key}',
    ],
    `
      movies *: 403 invalid_api_key
      movies *.get: 403 invalid_api_key
      movies keys.get: key refused 400 index_scoped_api_key_with_global_action
      mov* *: 403 invalid_api_key
      mov* *.get: 403 invalid_api_key
      mov* keys.get: key refused 400 index_scoped_api_key_with_global_action
      * *: 200
      * *.get: 403 invalid_api_key
      * keys.get: 200
    `,
  ],
  [
    [
      'GET /indexes',
    ],
    `
      movies *: 200 [movies]
      movies *.get: 200 [movies]
      movies indexes.get: 200 [movies]
      mov* *: 200 [movies]
      mov* *.get: 200 [movies]
      mov* indexes.get: 200 [movies]
      * *: 200 [books,movies]
      * *.get: 200 [books,movies]
      * indexes.get: 200 [books,movies]
    `,
  ],
  [
    [
      'GET /indexes/{uid}',
    ],
    `
      movies *: 200 | 403 invalid_api_key (index) | 403 invalid_api_key (index)
      movies *.get: 200 | 403 invalid_api_key (index) | 403 invalid_api_key (index)
      movies indexes.get: 200 | 403 invalid_api_key (index) | 403 invalid_api_key (index)
      mov* *: 200 | 403 invalid_api_key (index) | 404 index_not_found
      mov* *.get: 200 | 403 invalid_api_key (index) | 404 index_not_found
      mov* indexes.get: 200 | 403 invalid_api_key (index) | 404 index_not_found
      * *: 200 | 200 | 404 index_not_found
      * *.get: 200 | 200 | 404 index_not_found
      * indexes.get: 200 | 200 | 404 index_not_found
    `,
  ],
  [
    [
      'GET /indexes/{uid}/stats',
    ],
    `
      movies *: 200 | 403 invalid_api_key (index) | 403 invalid_api_key (index)
      movies *.get: 200 | 403 invalid_api_key (index) | 403 invalid_api_key (index)
      movies stats.get: 200 | 403 invalid_api_key (index) | 403 invalid_api_key (index)
      mov* *: 200 | 403 invalid_api_key (index) | 404 index_not_found
      mov* *.get: 200 | 403 invalid_api_key (index) | 404 index_not_found
      mov* stats.get: 200 | 403 invalid_api_key (index) | 404 index_not_found
      * *: 200 | 200 | 404 index_not_found
      * *.get: 200 | 200 | 404 index_not_found
      * stats.get: 200 | 200 | 404 index_not_found
    `,
  ],
  [
    [
      'POST /indexes/{uid}/fields',
    ],
    `
      movies *: 200 | 403 invalid_api_key (index) | 403 invalid_api_key (index)
      movies *.get: 200 | 403 invalid_api_key (index) | 403 invalid_api_key (index)
      movies fields.post: 200 | 403 invalid_api_key (index) | 403 invalid_api_key (index)
      mov* *: 200 | 403 invalid_api_key (index) | 404 index_not_found
      mov* *.get: 200 | 403 invalid_api_key (index) | 404 index_not_found
      mov* fields.post: 200 | 403 invalid_api_key (index) | 404 index_not_found
      * *: 200 | 200 | 404 index_not_found
      * *.get: 200 | 200 | 404 index_not_found
      * fields.post: 200 | 200 | 404 index_not_found
    `,
  ],
  [
    [
      'GET /indexes/{uid}/documents',
      'POST /indexes/{uid}/documents/fetch',
      'GET /indexes/{uid}/documents/{id}',
    ],
    `
      movies *: 200 | 403 invalid_api_key (index) | 403 invalid_api_key (index)
      movies *.get: 200 | 403 invalid_api_key (index) | 403 invalid_api_key (index)
      movies documents.get: 200 | 403 invalid_api_key (index) | 403 invalid_api_key (index)
      mov* *: 200 | 403 invalid_api_key (index) | 404 index_not_found
      mov* *.get: 200 | 403 invalid_api_key (index) | 404 index_not_found
      mov* documents.get: 200 | 403 invalid_api_key (index) | 404 index_not_found
      * *: 200 | 200 | 404 index_not_found
      * *.get: 200 | 200 | 404 index_not_found
      * documents.get: 200 | 200 | 404 index_not_found
    `,
  ],
  [
    [
      'GET /indexes/{uid}/search',
      'POST /indexes/{uid}/search',
    ],
    `
      movies *: 200 | 403 invalid_api_key (index) | 403 invalid_api_key (index)
      movies *.get: 200 | 403 invalid_api_key (index) | 403 invalid_api_key (index)
      movies search: 200 | 403 invalid_api_key (index) | 403 invalid_api_key (index)
      mov* *: 200 | 403 invalid_api_key (index) | 404 index_not_found
      mov* *.get: 200 | 403 invalid_api_key (index) | 404 index_not_found
      mov* search: 200 | 403 invalid_api_key (index) | 404 index_not_found
      * *: 200 | 200 | 404 index_not_found
      * *.get: 200 | 200 | 404 index_not_found
      * search: 200 | 200 | 404 index_not_found
    `,
  ],
  [
    [
      'POST /indexes/{uid}/facet-search',
    ],
    `
      movies *: 400 invalid_facet_search_facet_name | 403 invalid_api_key (index) | 403 invalid_api_key (index)
      movies *.get: 400 invalid_facet_search_facet_name | 403 invalid_api_key (index) | 403 invalid_api_key (index)
      movies search: 400 invalid_facet_search_facet_name | 403 invalid_api_key (index) | 403 invalid_api_key (index)
      mov* *: 400 invalid_facet_search_facet_name | 403 invalid_api_key (index) | 404 index_not_found
      mov* *.get: 400 invalid_facet_search_facet_name | 403 invalid_api_key (index) | 404 index_not_found
      mov* search: 400 invalid_facet_search_facet_name | 403 invalid_api_key (index) | 404 index_not_found
      * *: 400 invalid_facet_search_facet_name | 400 invalid_facet_search_facet_name | 404 index_not_found
      * *.get: 400 invalid_facet_search_facet_name | 400 invalid_facet_search_facet_name | 404 index_not_found
      * search: 400 invalid_facet_search_facet_name | 400 invalid_facet_search_facet_name | 404 index_not_found
    `,
  ],
  [
    [
      'GET /indexes/{uid}/similar',
      'POST /indexes/{uid}/similar',
    ],
    `
      movies *: 400 invalid_similar_embedder | 403 invalid_api_key (index) | 403 invalid_api_key (index)
      movies *.get: 400 invalid_similar_embedder | 403 invalid_api_key (index) | 403 invalid_api_key (index)
      movies search: 400 invalid_similar_embedder | 403 invalid_api_key (index) | 403 invalid_api_key (index)
      mov* *: 400 invalid_similar_embedder | 403 invalid_api_key (index) | 404 index_not_found
      mov* *.get: 400 invalid_similar_embedder | 403 invalid_api_key (index) | 404 index_not_found
      mov* search: 400 invalid_similar_embedder | 403 invalid_api_key (index) | 404 index_not_found
      * *: 400 invalid_similar_embedder | 400 invalid_similar_embedder | 404 index_not_found
      * *.get: 400 invalid_similar_embedder | 400 invalid_similar_embedder | 404 index_not_found
      * search: 400 invalid_similar_embedder | 400 invalid_similar_embedder | 404 index_not_found
    `,
  ],
  [
    [
      'POST /multi-search',
    ],
    `
      movies *: 200 [movies] | 403 invalid_api_key | 403 invalid_api_key
      movies *.get: 200 [movies] | 403 invalid_api_key | 403 invalid_api_key
      movies search: 200 [movies] | 403 invalid_api_key | 403 invalid_api_key
      mov* *: 200 [movies] | 403 invalid_api_key | 400 index_not_found
      mov* *.get: 200 [movies] | 403 invalid_api_key | 400 index_not_found
      mov* search: 200 [movies] | 403 invalid_api_key | 400 index_not_found
      * *: 200 [movies] | 200 [books] | 400 index_not_found
      * *.get: 200 [movies] | 200 [books] | 400 index_not_found
      * search: 200 [movies] | 200 [books] | 400 index_not_found
    `,
  ],
  [
    [
      'POST /multi-search (federated)',
    ],
    `
      movies *: 200 1 hits | 403 invalid_api_key | 403 invalid_api_key
      movies *.get: 200 1 hits | 403 invalid_api_key | 403 invalid_api_key
      movies search: 200 1 hits | 403 invalid_api_key | 403 invalid_api_key
      mov* *: 200 1 hits | 403 invalid_api_key | 400 index_not_found
      mov* *.get: 200 1 hits | 403 invalid_api_key | 400 index_not_found
      mov* search: 200 1 hits | 403 invalid_api_key | 400 index_not_found
      * *: 200 1 hits | 200 1 hits | 400 index_not_found
      * *.get: 200 1 hits | 200 1 hits | 400 index_not_found
      * search: 200 1 hits | 200 1 hits | 400 index_not_found
    `,
  ],
  [
    [
      'GET /indexes/{uid}/settings',
      'GET /indexes/{uid}/settings/displayed-attributes',
      'GET /indexes/{uid}/settings/searchable-attributes',
      'GET /indexes/{uid}/settings/filterable-attributes',
      'GET /indexes/{uid}/settings/sortable-attributes',
      'GET /indexes/{uid}/settings/foreign-keys',
      'GET /indexes/{uid}/settings/ranking-rules',
      'GET /indexes/{uid}/settings/stop-words',
      'GET /indexes/{uid}/settings/non-separator-tokens',
      'GET /indexes/{uid}/settings/separator-tokens',
      'GET /indexes/{uid}/settings/dictionary',
      'GET /indexes/{uid}/settings/synonyms',
      'GET /indexes/{uid}/settings/distinct-attribute',
      'GET /indexes/{uid}/settings/proximity-precision',
      'GET /indexes/{uid}/settings/typo-tolerance',
      'GET /indexes/{uid}/settings/faceting',
      'GET /indexes/{uid}/settings/pagination',
      'GET /indexes/{uid}/settings/embedders',
      'GET /indexes/{uid}/settings/search-cutoff-ms',
      'GET /indexes/{uid}/settings/localized-attributes',
      'GET /indexes/{uid}/settings/facet-search',
      'GET /indexes/{uid}/settings/prefix-search',
      'GET /indexes/{uid}/settings/chat',
    ],
    `
      movies *: 200 | 403 invalid_api_key (index) | 403 invalid_api_key (index)
      movies *.get: 200 | 403 invalid_api_key (index) | 403 invalid_api_key (index)
      movies settings.get: 200 | 403 invalid_api_key (index) | 403 invalid_api_key (index)
      mov* *: 200 | 403 invalid_api_key (index) | 404 index_not_found
      mov* *.get: 200 | 403 invalid_api_key (index) | 404 index_not_found
      mov* settings.get: 200 | 403 invalid_api_key (index) | 404 index_not_found
      * *: 200 | 200 | 404 index_not_found
      * *.get: 200 | 200 | 404 index_not_found
      * settings.get: 200 | 200 | 404 index_not_found
    `,
  ],
  [
    [
      'GET /tasks',
      'GET /batches',
    ],
    `
      movies *: 200 [movies]
      movies *.get: 200 [movies]
      movies tasks.get: 200 [movies]
      mov* *: 200 [movies]
      mov* *.get: 200 [movies]
      mov* tasks.get: 200 [movies]
      * *: 200 [books,movies]
      * *.get: 200 [books,movies]
      * tasks.get: 200 [books,movies]
    `,
  ],
  [
    [
      'GET /tasks?indexUids={uid}',
      'GET /batches?indexUids={uid}',
    ],
    `
      movies *: 200 [movies] | 200 [] | 200 []
      movies *.get: 200 [movies] | 200 [] | 200 []
      movies tasks.get: 200 [movies] | 200 [] | 200 []
      mov* *: 200 [movies] | 200 [] | 200 []
      mov* *.get: 200 [movies] | 200 [] | 200 []
      mov* tasks.get: 200 [movies] | 200 [] | 200 []
      * *: 200 [movies] | 200 [books] | 200 []
      * *.get: 200 [movies] | 200 [books] | 200 []
      * tasks.get: 200 [movies] | 200 [books] | 200 []
    `,
  ],
  [
    [
      'GET /tasks/{task of uid}',
    ],
    `
      movies *: 200 | 404 task_not_found | 404 task_not_found
      movies *.get: 200 | 404 task_not_found | 404 task_not_found
      movies tasks.get: 200 | 404 task_not_found | 404 task_not_found
      mov* *: 200 | 404 task_not_found | 404 task_not_found
      mov* *.get: 200 | 404 task_not_found | 404 task_not_found
      mov* tasks.get: 200 | 404 task_not_found | 404 task_not_found
      * *: 200 | 200 | 404 task_not_found
      * *.get: 200 | 200 | 404 task_not_found
      * tasks.get: 200 | 200 | 404 task_not_found
    `,
  ],
  [
    [
      'GET /tasks/{task of uid}/documents',
    ],
    `
      movies *: 404 task_file_not_found | 404 task_not_found | 404 task_not_found
      movies *.get: 404 task_file_not_found | 404 task_not_found | 404 task_not_found
      movies tasks.get: 404 task_file_not_found | 404 task_not_found | 404 task_not_found
      mov* *: 404 task_file_not_found | 404 task_not_found | 404 task_not_found
      mov* *.get: 404 task_file_not_found | 404 task_not_found | 404 task_not_found
      mov* tasks.get: 404 task_file_not_found | 404 task_not_found | 404 task_not_found
      * *: 404 task_file_not_found | 404 task_file_not_found | 404 task_not_found
      * *.get: 404 task_file_not_found | 404 task_file_not_found | 404 task_not_found
      * tasks.get: 404 task_file_not_found | 404 task_file_not_found | 404 task_not_found
    `,
  ],
  [
    [
      'GET /batches/{batch of uid}',
    ],
    `
      movies *: 200 | 404 batch_not_found | 404 batch_not_found
      movies *.get: 200 | 404 batch_not_found | 404 batch_not_found
      movies tasks.get: 200 | 404 batch_not_found | 404 batch_not_found
      mov* *: 200 | 404 batch_not_found | 404 batch_not_found
      mov* *.get: 200 | 404 batch_not_found | 404 batch_not_found
      mov* tasks.get: 200 | 404 batch_not_found | 404 batch_not_found
      * *: 200 | 200 | 404 batch_not_found
      * *.get: 200 | 200 | 404 batch_not_found
      * tasks.get: 200 | 200 | 404 batch_not_found
    `,
  ],
  [
    [
      'PATCH /experimental-features',
    ],
    `
      movies *: 403 invalid_api_key
      movies *.get: 403 invalid_api_key
      movies experimental.update: key refused 400 index_scoped_api_key_with_global_action
      mov* *: 403 invalid_api_key
      mov* *.get: 403 invalid_api_key
      mov* experimental.update: key refused 400 index_scoped_api_key_with_global_action
      * *: 200
      * *.get: 403 invalid_api_key
      * experimental.update: 200
    `,
  ],
  [
    [
      'POST /keys',
    ],
    `
      movies *: 403 invalid_api_key
      movies *.get: 403 invalid_api_key
      movies keys.create: key refused 400 index_scoped_api_key_with_global_action
      mov* *: 403 invalid_api_key
      mov* *.get: 403 invalid_api_key
      mov* keys.create: key refused 400 index_scoped_api_key_with_global_action
      * *: 201
      * *.get: 403 invalid_api_key
      * keys.create: 201
    `,
  ],
  [
    [
      'PATCH /keys/{key}',
    ],
    `
      movies *: 403 invalid_api_key
      movies *.get: 403 invalid_api_key
      movies keys.update: key refused 400 index_scoped_api_key_with_global_action
      mov* *: 403 invalid_api_key
      mov* *.get: 403 invalid_api_key
      mov* keys.update: key refused 400 index_scoped_api_key_with_global_action
      * *: 200
      * *.get: 403 invalid_api_key
      * keys.update: 200
    `,
  ],
  [
    [
      'DELETE /keys/{key}',
    ],
    `
      movies *: 403 invalid_api_key
      movies *.get: 403 invalid_api_key
      movies keys.delete: key refused 400 index_scoped_api_key_with_global_action
      mov* *: 403 invalid_api_key
      mov* *.get: 403 invalid_api_key
      mov* keys.delete: key refused 400 index_scoped_api_key_with_global_action
      * *: 204
      * *.get: 403 invalid_api_key
      * keys.delete: 204
    `,
  ],
  [
    [
      'POST /indexes',
    ],
    `
      movies *: 202 | 403 invalid_api_key | 403 invalid_api_key
      movies *.get: 403 invalid_api_key | 403 invalid_api_key | 403 invalid_api_key
      movies indexes.create: 202 | 403 invalid_api_key | 403 invalid_api_key
      mov* *: 202 | 403 invalid_api_key | 202
      mov* *.get: 403 invalid_api_key | 403 invalid_api_key | 403 invalid_api_key
      mov* indexes.create: 202 | 403 invalid_api_key | 202
      * *: 202 | 202 | 202
      * *.get: 403 invalid_api_key | 403 invalid_api_key | 403 invalid_api_key
      * indexes.create: 202 | 202 | 202
    `,
  ],
  [
    [
      'PATCH /indexes/{uid}',
    ],
    `
      movies *: 202 | 403 invalid_api_key (index) | 403 invalid_api_key (index)
      movies *.get: 403 invalid_api_key | 403 invalid_api_key (index) | 403 invalid_api_key (index)
      movies indexes.update: 202 | 403 invalid_api_key (index) | 403 invalid_api_key (index)
      mov* *: 202 | 403 invalid_api_key (index) | 202
      mov* *.get: 403 invalid_api_key | 403 invalid_api_key (index) | 403 invalid_api_key
      mov* indexes.update: 202 | 403 invalid_api_key (index) | 202
      * *: 202 | 202 | 202
      * *.get: 403 invalid_api_key | 403 invalid_api_key | 403 invalid_api_key
      * indexes.update: 202 | 202 | 202
    `,
  ],
  [
    [
      'DELETE /indexes/{uid}',
    ],
    `
      movies *: 202 | 403 invalid_api_key (index) | 403 invalid_api_key (index)
      movies *.get: 403 invalid_api_key | 403 invalid_api_key (index) | 403 invalid_api_key (index)
      movies indexes.delete: 202 | 403 invalid_api_key (index) | 403 invalid_api_key (index)
      mov* *: 202 | 403 invalid_api_key (index) | 202
      mov* *.get: 403 invalid_api_key | 403 invalid_api_key (index) | 403 invalid_api_key
      mov* indexes.delete: 202 | 403 invalid_api_key (index) | 202
      * *: 202 | 202 | 202
      * *.get: 403 invalid_api_key | 403 invalid_api_key | 403 invalid_api_key
      * indexes.delete: 202 | 202 | 202
    `,
  ],
  [
    [
      'POST /swap-indexes',
    ],
    `
      movies *: 400 invalid_swap_duplicate_index_found | 403 invalid_api_key | 403 invalid_api_key
      movies *.get: 403 invalid_api_key | 403 invalid_api_key | 403 invalid_api_key
      movies indexes.swap: 400 invalid_swap_duplicate_index_found | 403 invalid_api_key | 403 invalid_api_key
      mov* *: 400 invalid_swap_duplicate_index_found | 403 invalid_api_key | 202
      mov* *.get: 403 invalid_api_key | 403 invalid_api_key | 403 invalid_api_key
      mov* indexes.swap: 400 invalid_swap_duplicate_index_found | 403 invalid_api_key | 202
      * *: 400 invalid_swap_duplicate_index_found | 202 | 202
      * *.get: 403 invalid_api_key | 403 invalid_api_key | 403 invalid_api_key
      * indexes.swap: 400 invalid_swap_duplicate_index_found | 202 | 202
    `,
  ],
  [
    [
      'POST /indexes/{uid}/documents',
      'PUT /indexes/{uid}/documents',
    ],
    `
      movies *: 202 | 403 invalid_api_key (index) | 403 invalid_api_key (index)
      movies *.get: 403 invalid_api_key | 403 invalid_api_key (index) | 403 invalid_api_key (index)
      movies documents.add: 202 | 403 invalid_api_key (index) | 403 invalid_api_key (index)
      mov* *: 202 | 403 invalid_api_key (index) | 202
      mov* *.get: 403 invalid_api_key | 403 invalid_api_key (index) | 403 invalid_api_key
      mov* documents.add: 202 | 403 invalid_api_key (index) | 202
      * *: 202 | 202 | 202
      * *.get: 403 invalid_api_key | 403 invalid_api_key | 403 invalid_api_key
      * documents.add: 202 | 202 | 202
    `,
  ],
  [
    [
      'DELETE /indexes/{uid}/documents/{id}',
      'POST /indexes/{uid}/documents/delete-batch',
      'POST /indexes/{uid}/documents/delete',
      'DELETE /indexes/{uid}/documents',
    ],
    `
      movies *: 202 | 403 invalid_api_key (index) | 403 invalid_api_key (index)
      movies *.get: 403 invalid_api_key | 403 invalid_api_key (index) | 403 invalid_api_key (index)
      movies documents.delete: 202 | 403 invalid_api_key (index) | 403 invalid_api_key (index)
      mov* *: 202 | 403 invalid_api_key (index) | 202
      mov* *.get: 403 invalid_api_key | 403 invalid_api_key (index) | 403 invalid_api_key
      mov* documents.delete: 202 | 403 invalid_api_key (index) | 202
      * *: 202 | 202 | 202
      * *.get: 403 invalid_api_key | 403 invalid_api_key | 403 invalid_api_key
      * documents.delete: 202 | 202 | 202
    `,
  ],
  [
    [
      'PATCH /indexes/{uid}/settings',
      'DELETE /indexes/{uid}/settings',
      'PUT /indexes/{uid}/settings/displayed-attributes',
      'DELETE /indexes/{uid}/settings/displayed-attributes',
      'PUT /indexes/{uid}/settings/searchable-attributes',
      'DELETE /indexes/{uid}/settings/searchable-attributes',
      'PUT /indexes/{uid}/settings/filterable-attributes',
      'DELETE /indexes/{uid}/settings/filterable-attributes',
      'PUT /indexes/{uid}/settings/sortable-attributes',
      'DELETE /indexes/{uid}/settings/sortable-attributes',
      'PUT /indexes/{uid}/settings/foreign-keys',
      'DELETE /indexes/{uid}/settings/foreign-keys',
      'PUT /indexes/{uid}/settings/ranking-rules',
      'DELETE /indexes/{uid}/settings/ranking-rules',
      'PUT /indexes/{uid}/settings/stop-words',
      'DELETE /indexes/{uid}/settings/stop-words',
      'PUT /indexes/{uid}/settings/non-separator-tokens',
      'DELETE /indexes/{uid}/settings/non-separator-tokens',
      'PUT /indexes/{uid}/settings/separator-tokens',
      'DELETE /indexes/{uid}/settings/separator-tokens',
      'PUT /indexes/{uid}/settings/dictionary',
      'DELETE /indexes/{uid}/settings/dictionary',
      'PUT /indexes/{uid}/settings/synonyms',
      'DELETE /indexes/{uid}/settings/synonyms',
      'PUT /indexes/{uid}/settings/distinct-attribute',
      'DELETE /indexes/{uid}/settings/distinct-attribute',
      'PUT /indexes/{uid}/settings/proximity-precision',
      'DELETE /indexes/{uid}/settings/proximity-precision',
      'PATCH /indexes/{uid}/settings/typo-tolerance',
      'DELETE /indexes/{uid}/settings/typo-tolerance',
      'PATCH /indexes/{uid}/settings/faceting',
      'DELETE /indexes/{uid}/settings/faceting',
      'PATCH /indexes/{uid}/settings/pagination',
      'DELETE /indexes/{uid}/settings/pagination',
      'PATCH /indexes/{uid}/settings/embedders',
      'DELETE /indexes/{uid}/settings/embedders',
      'PUT /indexes/{uid}/settings/search-cutoff-ms',
      'DELETE /indexes/{uid}/settings/search-cutoff-ms',
      'PUT /indexes/{uid}/settings/localized-attributes',
      'DELETE /indexes/{uid}/settings/localized-attributes',
      'PUT /indexes/{uid}/settings/facet-search',
      'DELETE /indexes/{uid}/settings/facet-search',
      'PUT /indexes/{uid}/settings/prefix-search',
      'DELETE /indexes/{uid}/settings/prefix-search',
      'PATCH /indexes/{uid}/settings/chat',
      'DELETE /indexes/{uid}/settings/chat',
    ],
    `
      movies *: 202 | 403 invalid_api_key (index) | 403 invalid_api_key (index)
      movies *.get: 403 invalid_api_key | 403 invalid_api_key (index) | 403 invalid_api_key (index)
      movies settings.update: 202 | 403 invalid_api_key (index) | 403 invalid_api_key (index)
      mov* *: 202 | 403 invalid_api_key (index) | 202
      mov* *.get: 403 invalid_api_key | 403 invalid_api_key (index) | 403 invalid_api_key
      mov* settings.update: 202 | 403 invalid_api_key (index) | 202
      * *: 202 | 202 | 202
      * *.get: 403 invalid_api_key | 403 invalid_api_key | 403 invalid_api_key
      * settings.update: 202 | 202 | 202
    `,
  ],
  [
    [
      'POST /tasks/cancel',
    ],
    `
      movies *: 200
      movies *.get: 403 invalid_api_key
      movies tasks.cancel: 200
      mov* *: 200
      mov* *.get: 403 invalid_api_key
      mov* tasks.cancel: 200
      * *: 200
      * *.get: 403 invalid_api_key
      * tasks.cancel: 200
    `,
  ],
  [
    [
      'POST /tasks/cancel?indexUids={uid}',
    ],
    `
      movies *: 200 | 200 | 200
      movies *.get: 403 invalid_api_key | 403 invalid_api_key | 403 invalid_api_key
      movies tasks.cancel: 200 | 200 | 200
      mov* *: 200 | 200 | 200
      mov* *.get: 403 invalid_api_key | 403 invalid_api_key | 403 invalid_api_key
      mov* tasks.cancel: 200 | 200 | 200
      * *: 200 | 200 | 200
      * *.get: 403 invalid_api_key | 403 invalid_api_key | 403 invalid_api_key
      * tasks.cancel: 200 | 200 | 200
    `,
  ],
  [
    [
      'DELETE /tasks',
    ],
    `
      movies *: 200
      movies *.get: 403 invalid_api_key
      movies tasks.delete: 200
      mov* *: 200
      mov* *.get: 403 invalid_api_key
      mov* tasks.delete: 200
      * *: 200
      * *.get: 403 invalid_api_key
      * tasks.delete: 200
    `,
  ],
  [
    [
      'DELETE /tasks?indexUids={uid}',
    ],
    `
      movies *: 200 | 200 | 200
      movies *.get: 403 invalid_api_key | 403 invalid_api_key | 403 invalid_api_key
      movies tasks.delete: 200 | 200 | 200
      mov* *: 200 | 200 | 200
      mov* *.get: 403 invalid_api_key | 403 invalid_api_key | 403 invalid_api_key
      mov* tasks.delete: 200 | 200 | 200
      * *: 200 | 200 | 200
      * *.get: 403 invalid_api_key | 403 invalid_api_key | 403 invalid_api_key
      * tasks.delete: 200 | 200 | 200
    `,
  ],
  [
    [
      'POST /tasks/compact',
    ],
    `
      movies *: 403 invalid_api_key
      movies *.get: 403 invalid_api_key
      movies tasks.compact: key refused 400 index_scoped_api_key_with_global_action
      mov* *: 403 invalid_api_key
      mov* *.get: 403 invalid_api_key
      mov* tasks.compact: key refused 400 index_scoped_api_key_with_global_action
      * *: 400 feature_not_enabled
      * *.get: 403 invalid_api_key
      * tasks.compact: 400 feature_not_enabled
    `,
  ],
  [
    [
      'POST /indexes/{uid}/compact',
    ],
    `
      movies *: 202 | 403 invalid_api_key (index) | 403 invalid_api_key (index)
      movies *.get: 403 invalid_api_key | 403 invalid_api_key (index) | 403 invalid_api_key (index)
      movies indexes.compact: 202 | 403 invalid_api_key (index) | 403 invalid_api_key (index)
      mov* *: 202 | 403 invalid_api_key (index) | 202
      mov* *.get: 403 invalid_api_key | 403 invalid_api_key (index) | 403 invalid_api_key
      mov* indexes.compact: 202 | 403 invalid_api_key (index) | 202
      * *: 202 | 202 | 202
      * *.get: 403 invalid_api_key | 403 invalid_api_key | 403 invalid_api_key
      * indexes.compact: 202 | 202 | 202
    `,
  ],
  [
    [
      'POST /dumps',
    ],
    `
      movies *: 403 invalid_api_key
      movies *.get: 403 invalid_api_key
      movies dumps.create: key refused 400 index_scoped_api_key_with_global_action
      mov* *: 403 invalid_api_key
      mov* *.get: 403 invalid_api_key
      mov* dumps.create: key refused 400 index_scoped_api_key_with_global_action
      * *: 202
      * *.get: 403 invalid_api_key
      * dumps.create: 202
    `,
  ],
  [
    [
      'POST /snapshots',
    ],
    `
      movies *: 403 invalid_api_key
      movies *.get: 403 invalid_api_key
      movies snapshots.create: key refused 400 index_scoped_api_key_with_global_action
      mov* *: 403 invalid_api_key
      mov* *.get: 403 invalid_api_key
      mov* snapshots.create: key refused 400 index_scoped_api_key_with_global_action
      * *: 202
      * *.get: 403 invalid_api_key
      * snapshots.create: 202
    `,
  ],
  [
    [
      'POST /export',
    ],
    `
      movies *: 403 invalid_api_key
      movies *.get: 403 invalid_api_key
      movies export: key refused 400 index_scoped_api_key_with_global_action
      mov* *: 403 invalid_api_key
      mov* *.get: 403 invalid_api_key
      mov* export: key refused 400 index_scoped_api_key_with_global_action
      * *: 200
      * *.get: 200
      * export: 200
    `,
  ],
  [
    [
      'GET /metrics',
      'POST /logs/stream',
      'DELETE /logs/stream',
      'POST /logs/stderr',
    ],
    `
      movies *: 403 invalid_api_key
      movies *.get: 403 invalid_api_key
      movies metrics.get: key refused 400 index_scoped_api_key_with_global_action
      mov* *: 403 invalid_api_key
      mov* *.get: 403 invalid_api_key
      mov* metrics.get: key refused 400 index_scoped_api_key_with_global_action
      * *: 400 feature_not_enabled
      * *.get: 400 feature_not_enabled
      * metrics.get: 400 feature_not_enabled
    `,
  ],
  [
    [
      'POST /render-template',
    ],
    `
      movies *: 400 feature_not_enabled
      movies *.get: 400 feature_not_enabled
      movies settings.get: 403 invalid_api_key
      mov* *: 400 feature_not_enabled
      mov* *.get: 400 feature_not_enabled
      mov* settings.get: 403 invalid_api_key
      * *: 400 feature_not_enabled
      * *.get: 400 feature_not_enabled
      * settings.get: 403 invalid_api_key
    `,
  ],
  [
    [
      'GET /webhooks',
    ],
    `
      movies *: 403 invalid_api_key
      movies *.get: 403 invalid_api_key
      movies webhooks.get: key refused 400 index_scoped_api_key_with_global_action
      mov* *: 403 invalid_api_key
      mov* *.get: 403 invalid_api_key
      mov* webhooks.get: key refused 400 index_scoped_api_key_with_global_action
      * *: 200
      * *.get: 200
      * webhooks.get: 200
    `,
  ],
  [
    [
      'GET /webhooks/{uuid}',
    ],
    `
      movies *: 403 invalid_api_key
      movies *.get: 403 invalid_api_key
      movies webhooks.get: key refused 400 index_scoped_api_key_with_global_action
      mov* *: 403 invalid_api_key
      mov* *.get: 403 invalid_api_key
      mov* webhooks.get: key refused 400 index_scoped_api_key_with_global_action
      * *: 404 webhook_not_found
      * *.get: 404 webhook_not_found
      * webhooks.get: 404 webhook_not_found
    `,
  ],
  [
    [
      'POST /webhooks',
    ],
    `
      movies *: 403 invalid_api_key
      movies *.get: 403 invalid_api_key
      movies webhooks.create: key refused 400 index_scoped_api_key_with_global_action
      mov* *: 403 invalid_api_key
      mov* *.get: 403 invalid_api_key
      mov* webhooks.create: key refused 400 index_scoped_api_key_with_global_action
      * *: 201
      * *.get: 403 invalid_api_key
      * webhooks.create: 201
    `,
  ],
  [
    [
      'PATCH /webhooks/{uuid}',
    ],
    `
      movies *: 403 invalid_api_key
      movies *.get: 403 invalid_api_key
      movies webhooks.update: key refused 400 index_scoped_api_key_with_global_action
      mov* *: 403 invalid_api_key
      mov* *.get: 403 invalid_api_key
      mov* webhooks.update: key refused 400 index_scoped_api_key_with_global_action
      * *: 404 webhook_not_found
      * *.get: 403 invalid_api_key
      * webhooks.update: 404 webhook_not_found
    `,
  ],
  [
    [
      'DELETE /webhooks/{uuid}',
    ],
    `
      movies *: 403 invalid_api_key
      movies *.get: 403 invalid_api_key
      movies webhooks.delete: key refused 400 index_scoped_api_key_with_global_action
      mov* *: 403 invalid_api_key
      mov* *.get: 403 invalid_api_key
      mov* webhooks.delete: key refused 400 index_scoped_api_key_with_global_action
      * *: 404 webhook_not_found
      * *.get: 403 invalid_api_key
      * webhooks.delete: 404 webhook_not_found
    `,
  ],
];

/** The expected text of one route, without the template's indentation. */
function expectedFor(id: string): string | undefined {
  const entry = EXPECTED.find(([ids]) => ids.includes(id));
  return entry?.[1].trim().split('\n').map((l) => l.trim()).join('\n');
}

let t: TestServer;
let table: Table;
before(async () => {
  t = await startTestServer();
  table = await runMatrix((method, path, { body, key }) => t.fetch(method, path, { key, ...(body !== undefined ? { body } : {}) }), t.masterKey!);
});
after(async () => {
  await t.close();
});

test('the table names every route of the matrix once', () => {
  const named = EXPECTED.flatMap(([ids]) => ids);
  assert.deepEqual([...named].sort(), ROUTES.map((r) => r.id).sort());
});

for (const route of ROUTES) {
  test(`${route.id}: answers of scoped keys as Meilisearch`, () => {
    assert.equal(table[route.id], expectedFor(route.id));
  });
}
