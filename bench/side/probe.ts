// Sends the growth queries of one size, one at a time, to a server already running (by hand, on a
// db kept with --keep) and prints the time per query class and the slowest queries: a probe for
// profiling (start the server with `node --cpu-prof dist/main.js`), not a benchmark of record.
//   tsx bench/side/probe.ts <baseUrl> <size> [rounds]
import { GrowthCorpus } from './growth-docs.ts';
import path from 'node:path';
import { sharedDir } from '../lib/shared-dir.ts';

const [baseUrl = 'http://127.0.0.1:7700', sizeArg = '100000', roundsArg = '3'] = process.argv.slice(2);
const n = Number(sizeArg);
const corpus = GrowthCorpus.load(path.join(sharedDir(process.cwd()), 'datasets'), 275937);
const bodies = corpus.queries(n, 300, 275937 + 1);
const kind = (b: Record<string, unknown>): string => (b.filter ? 'filter' : String(b.q).includes(' ') ? 'two words' : String(b.q).length === 3 ? 'prefix' : 'typo');
const times = new Map<string, number[]>();
const slow: Array<[number, string]> = [];
for (let round = 0; round < Number(roundsArg); round++) {
  for (const body of bodies) {
    const t0 = performance.now();
    const res = await fetch(`${baseUrl}/indexes/growth/search`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    await res.json();
    const ms = performance.now() - t0;
    if (round === Number(roundsArg) - 1) {
      const k = kind(body);
      times.set(k, [...(times.get(k) ?? []), ms]);
      slow.push([ms, JSON.stringify(body)]);
    }
  }
}
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))]!;
for (const [k, xs] of times) console.log(`${k.padEnd(10)} n=${xs.length} p50 ${pct(xs, 0.5).toFixed(2)} p95 ${pct(xs, 0.95).toFixed(2)} max ${pct(xs, 1).toFixed(2)} sum ${xs.reduce((a, b) => a + b, 0).toFixed(0)}`);
for (const [ms, b] of slow.sort((a, b) => b[0] - a[0]).slice(0, 12)) console.log(`${ms.toFixed(1).padStart(7)} ms  ${b}`);
