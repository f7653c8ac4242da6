// GET /openapi.json (a Muninn extension): every route the server registered is in it, with the
// action its key needs, and no registered route lacks a description (so the document cannot drift).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer } from './helpers.ts';
import { undocumented } from '../../src/http/openapi.ts';

test('GET /openapi.json describes every registered route', async () => {
  const t = await startTestServer();
  try {
    const routes = (t.server.app as unknown as { registeredRoutes: { method: string; url: string; action: string | undefined }[] }).registeredRoutes;
    assert.ok(routes.length > 100, `${routes.length} routes`);
    assert.deepEqual(undocumented(routes), [], 'every registered route has a description in src/http/openapi.ts');

    const res = await t.fetch('GET', '/openapi.json', { key: null });
    assert.equal(res.status, 200, 'public, like /health');
    const doc = res.body as { openapi: string; paths: Record<string, Record<string, any>>; components: { schemas: Record<string, unknown> } };
    assert.equal(doc.openapi, '3.1.0');
    for (const r of routes) {
      const path = r.url.replace(/:([A-Za-z]+)/g, '{$1}');
      const op = doc.paths[path]?.[r.method.toLowerCase()];
      assert.ok(op, `${r.method} ${path} is in the document`);
      assert.equal(op['x-meilisearch-action'], r.action ?? null);
      for (const p of op.parameters ?? []) if (p.in === 'path') assert.ok(path.includes(`{${p.name}}`));
      // every reference resolves
      for (const m of JSON.stringify(op).matchAll(/"#\/components\/schemas\/([A-Za-z]+)"/g)) assert.ok(doc.components.schemas[m[1]!], m[1]);
    }
    const search = doc.paths['/indexes/{indexUid}/search']!.post;
    assert.ok('attributesToHighlight' in search.requestBody.content['application/json'].schema.properties);
    assert.equal(search['x-meilisearch-action'], 'search');
    assert.deepEqual(doc.paths['/health']!.get.security, []);
    assert.ok(Object.keys(doc.paths['/webhooks/{uuid}']!).includes('patch'));
  } finally {
    await t.close();
  }
});
