// Run by hand, never by `npm test`: runs the route × key matrix against a real Meilisearch and
// prints it in the form of key-scope.test.ts's EXPECTED table, grouping routes that answer alike.
//
//   /tmp/meilisearch --http-addr 127.0.0.1:7711 --master-key masterKey --db-path /tmp/meili-probe --no-analytics &
//   node --import tsx test/http/key-scope-probe.ts http://127.0.0.1:7711 masterKey
import { runMatrix, type Call } from './key-scope-matrix.ts';

const [url, master] = process.argv.slice(2);
if (!url || !master) throw new Error('usage: key-scope-probe.ts <url> <master key>');

const call: Call = async (method, path, { body, key }) => {
  const headers: Record<string, string> = { authorization: `Bearer ${key}` };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(url + path, { method, headers, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
  const text = await res.text();
  return { status: res.status, body: text === '' ? null : JSON.parse(text) };
};

const table = await runMatrix(call, master);
const groups = new Map<string, string[]>();
for (const [id, answers] of Object.entries(table)) groups.set(answers, [...(groups.get(answers) ?? []), id]);
const out: string[] = [];
for (const [answers, ids] of groups) {
  const names = ids.map((id) => `    ${JSON.stringify(id).replace(/"/g, "'")},`).join('\n');
  out.push(`  [\n    [\n${names.replace(/^/gm, '  ')}\n    ],\n    \`\n${answers.replace(/^/gm, '      ')}\n    \`,\n  ],`);
}
console.log(out.join('\n'));
