// Memory of a running server: `npm run build && node --import tsx bench/memory.ts [--meili BINARY] [--keep] [--hold]`.
// Starts a fresh server (dist/main.js, or a Meilisearch binary with --meili), then prints
// VmRSS / RssAnon / RssFile / VmHWM (from /proc/<pid>/status, MB = 10^6 bytes) at each step:
//   idle (3 s, 10 s) → 135k cities ingested (and the peak during that ingest: VmHWM is reset
//   before it) → 3,291 products, 1,688 movies, 233 speeches ingested the same way → 10 s of
//   quiet → searches on each index → 20 s of quiet.
// RssFile is node's own code and the LMDB pages reads have mapped (page cache the kernel may
// reclaim); RssAnon is heaps, stacks and native allocations. The timings printed are rough
// (one client, shared machine): the point is memory.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeRequest, makeWaitForTask, type Request } from './lib/http.ts';
import { readMem, resetHwm } from './lib/rss.ts';
import { freePort, makeTempDir, randomKey, startServer } from './lib/server.ts';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// ../shared/datasets from the main checkout, ../../shared/datasets from a worktree under wt/
const datasets = ['../shared/datasets', '../../shared/datasets'].map((p) => path.resolve(repoRoot, p)).find((p) => fs.existsSync(p))!;
const args = process.argv.slice(2);
const meili = args.includes('--meili') ? args[args.indexOf('--meili') + 1]! : null;
const keep = args.includes('--keep');
const hold = args.includes('--hold');
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
const NDJSON = { 'Content-Type': 'application/x-ndjson' };

interface Dataset {
  uid: string;
  file: string;
  settings: Record<string, unknown>;
  /** search bodies built from the documents */
  searches: (docs: Record<string, unknown>[]) => Record<string, unknown>[];
}

/** Up to `n` words of `text` picked every `step` words. */
function words(text: string, n: number, step = 7): string[] {
  const all = text.toLowerCase().match(/[a-z]{4,}/g) ?? [];
  const out: string[] = [];
  for (let i = 0; i < all.length && out.length < n; i += step) out.push(all[i]!);
  return out;
}

const every = <T>(xs: T[], n: number): T[] => xs.filter((_, i) => i % Math.max(1, Math.floor(xs.length / n)) === 0).slice(0, n);

const DATASETS: Dataset[] = [
  {
    uid: 'cities',
    file: 'geo-cities-geonames-135k/cities.ndjson',
    settings: {
      searchableAttributes: ['name'],
      filterableAttributes: ['_geo', 'population', 'country', 'featureCode'],
      sortableAttributes: ['_geo', 'population'],
    },
    searches: (docs) => [
      ...every(docs, 150).flatMap((d) => {
        const name = String(d['name']);
        return [{ q: name }, { q: name.slice(0, 4) }, { q: name, filter: `country = "${String(d['country'])}"` }];
      }),
      { q: '', sort: ['_geoPoint(50.63, 3.09):asc'], limit: 100 },
      { q: '', sort: ['_geoPoint(35.75, 139.62):desc'], limit: 100 },
      { q: '', filter: '_geoRadius(50.63, 3.09, 100000)', limit: 100 },
      { q: '', filter: 'population > 100000', sort: ['population:desc'], facets: ['country', 'featureCode'] },
      { q: 'san', facets: ['country'] },
    ],
  },
  {
    uid: 'products',
    file: 'ecommerce-bestbuy-3291/products.ndjson',
    settings: {
      searchableAttributes: ['name', 'brand', 'categories', 'description'],
      filterableAttributes: ['brand', 'categories', 'price'],
      sortableAttributes: ['price', 'popularity'],
    },
    searches: (docs) => [
      ...every(docs, 150).flatMap((d) => [{ q: words(String(d['name']), 2, 1).join(' ') }, { q: String(d['brand']), facets: ['brand', 'categories'] }]),
      { q: 'phone', filter: 'price < 300', sort: ['price:asc'] },
    ],
  },
  {
    uid: 'movies',
    file: 'movies-tmdb-1688/movies.ndjson',
    settings: { filterableAttributes: ['genres', 'director'], sortableAttributes: ['vote_average'] },
    searches: (docs) => [
      ...every(docs, 150).flatMap((d) => [{ q: String(d['title']) }, { q: words(String(d['overview']), 3).join(' '), facets: ['genres'] }]),
      { q: 'the', attributesToHighlight: ['*'], attributesToCrop: ['overview'] },
    ],
  },
  {
    uid: 'speeches',
    file: 'text-sotu-233/sotu.ndjson',
    settings: { filterableAttributes: ['party', 'year'] },
    searches: (docs) => [
      ...every(docs, 100).flatMap((d) => {
        const w = words(String(d['text']), 40, 97);
        return [{ q: w.slice(0, 2).join(' '), attributesToCrop: ['text'], attributesToHighlight: ['text'] }, { q: `"${w.slice(2, 4).join(' ')}"` }, { q: w.slice(4, 8).join(' ') }];
      }),
    ],
  },
];

interface Server {
  pid: number;
  request: Request;
  stop(): Promise<void>;
}

async function startMeili(binary: string, dbPath: string): Promise<Server> {
  const port = await freePort();
  const key = randomKey();
  const child = spawn(binary, ['--db-path', dbPath, '--http-addr', `127.0.0.1:${port}`, '--no-analytics', '--master-key', key, '--log-level', 'WARN'], { stdio: 'ignore' });
  const request = makeRequest(`http://127.0.0.1:${port}`, key);
  for (;;) {
    try {
      if ((await request('GET', '/health')).status === 200) break;
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  return { pid: child.pid!, request, stop: async () => (child.kill('SIGTERM'), await exited) };
}

async function startMuninn(dir: string): Promise<Server> {
  const s = await startServer({ repoRoot, dbPath: path.join(dir, 'db'), logFile: path.join(dir, 'server.log') });
  return { pid: s.pid, request: makeRequest(s.baseUrl, s.masterKey), stop: () => s.stop() };
}

const mb = (kb: number) => (kb / 1000).toFixed(1).padStart(7);
function line(label: string, pid: number): void {
  const m = readMem(pid)!;
  const threads = /^Threads:\s+(\d+)/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  console.log(`${label.padEnd(34)} VmRSS ${mb(m.vmRSS)}  RssAnon ${mb(m.rssAnon)}  RssFile ${mb(m.rssFile)}  HWM ${mb(m.vmHWM)}  threads ${threads}`);
}

async function ingest(server: Server, d: Dataset, body: Buffer): Promise<void> {
  const wait = makeWaitForTask(server.request, 50);
  const settings = await server.request<{ taskUid: number }>('PATCH', `/indexes/${d.uid}/settings`, d.settings);
  const docs = await server.request<{ taskUid: number }>('POST', `/indexes/${d.uid}/documents?primaryKey=id`, body, NDJSON);
  for (const uid of [settings.body.taskUid, docs.body.taskUid]) {
    const task = await wait(uid);
    if (task.status !== 'succeeded') throw new Error(`${d.uid}: task ${uid} ${task.status} ${JSON.stringify(task.error)}`);
  }
}

async function main(): Promise<void> {
  const dir = makeTempDir('muninn-memory-');
  const server = meili ? await startMeili(meili, path.join(dir, 'db')) : await startMuninn(dir);
  console.log(`${meili ? 'meilisearch' : 'muninn'} pid ${server.pid}, dir ${dir}`);
  try {
    await sleep(3000);
    line('idle 3 s', server.pid);
    await sleep(7000);
    line('idle 10 s', server.pid);
    const bodies = DATASETS.map((d) => fs.readFileSync(path.join(datasets, d.file)));
    for (const [i, d] of DATASETS.entries()) {
      resetHwm(server.pid);
      const before = readMem(server.pid)!.vmRSS;
      const t0 = Date.now();
      await ingest(server, d, bodies[i]!);
      const peak = readMem(server.pid)!.vmHWM;
      line(`${d.uid} ingested (${((Date.now() - t0) / 1000).toFixed(1)} s)`, server.pid);
      const payload = bodies[i]!.byteLength / 1000;
      console.log(`  payload ${mb(payload)} MB, peak ${mb(peak)} MB (+${mb(peak - before)} over the RSS before, ${((peak - before) / payload).toFixed(2)}x payload)`);
    }
    await sleep(10_000);
    line('10 s later', server.pid);
    let n = 0;
    const searchStart = Date.now();
    for (const [i, d] of DATASETS.entries()) {
      const docs = bodies[i]!.toString('utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
      for (const body of d.searches(docs)) {
        const res = await server.request('POST', `/indexes/${d.uid}/search`, body);
        if (res.status !== 200) throw new Error(`${d.uid} search ${JSON.stringify(body)} -> ${res.status} ${JSON.stringify(res.body)}`);
        n++;
      }
      line(`after ${n} searches (${d.uid})`, server.pid);
    }
    console.log(`  searches took ${((Date.now() - searchStart) / 1000).toFixed(1)} s (one client, one at a time)`);
    await sleep(20_000);
    line('20 s later', server.pid);
    if (hold) {
      console.log(`holding the server (pid ${server.pid}) until this script is interrupted`);
      await new Promise<void>((r) => process.once('SIGINT', () => r()));
    }
  } finally {
    await server.stop();
    if (!keep) fs.rmSync(dir, { recursive: true, force: true });
  }
}

await main();
