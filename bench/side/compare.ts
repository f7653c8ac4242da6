// Side-by-side output: one table with a column per server, and the top-10 agreement between the
// first two servers (Muninn and Meilisearch) on the same bodies.
import { fmt } from '../lib/report.ts';
import type { EngineRun, SideSpec } from './types.ts';

export interface Agreement {
  set: string;
  queries: number;
  /** share of bodies whose top-10 ids are the same ids in the same order */
  identical: number;
  /** share whose top-10 ids are the same set, order aside */
  sameSet: number;
}

export function agreement(spec: SideSpec, a: EngineRun, b: EngineRun): Agreement[] {
  const out: Agreement[] = [];
  for (const set of spec.sets) {
    const x = a.top10.get(set.name);
    const y = b.top10.get(set.name);
    if (!x || !y) continue;
    const n = Math.min(x.length, y.length);
    let identical = 0;
    let sameSet = 0;
    for (let i = 0; i < n; i++) {
      const p = x[i]!;
      const q = y[i]!;
      if (p.length === q.length && p.every((id, k) => id === q[k])) identical++;
      const ps = new Set(p);
      if (p.length === q.length && q.every((id) => ps.has(id))) sameSet++;
    }
    if (n > 0) out.push({ set: set.name, queries: n, identical: identical / n, sameSet: sameSet / n });
  }
  return out;
}

/** figure | unit | one value column per server; a figure one server lacks is left blank. */
export function sideTable(runs: readonly EngineRun[]): string {
  const names: string[] = [];
  const units = new Map<string, string>();
  for (const r of runs) {
    for (const f of r.figures) {
      if (!units.has(f.name)) names.push(f.name);
      units.set(f.name, f.unit);
    }
  }
  const rows = names.map((n) => [n, ...runs.map((r) => { const f = r.figures.find((x) => x.name === n); return f ? fmt(f.value) : ''; }), units.get(n)!]);
  const head = ['figure', ...runs.map((r) => r.engine), 'unit'];
  const all = [head, ...rows];
  const w = head.map((_, i) => Math.max(...all.map((row) => row[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 || i === cells.length - 1 ? c.padEnd(w[i]!) : c.padStart(w[i]!))).join('  ').trimEnd();
  return [line(head), line(w.map((x) => '-'.repeat(x))), ...rows.map(line)].join('\n');
}

export function agreementLines(list: readonly Agreement[], a: string, b: string): string[] {
  if (list.length === 0) return [];
  return [
    `top-10 agreement ${a} vs ${b} (same bodies, same order of queries):`,
    ...list.map((g) => `  ${g.set.padEnd(24)} ${(g.identical * 100).toFixed(1).padStart(5)}% identical (same ids, same order), ${(g.sameSet * 100).toFixed(1).padStart(5)}% same set, over ${g.queries} queries`),
  ];
}

/** The first `max` bodies of each set whose top 10 differ, with both lists (for `--show-diffs`). */
export function differenceLines(spec: SideSpec, a: EngineRun, b: EngineRun, max: number): string[] {
  const out: string[] = [];
  for (const set of spec.sets) {
    const x = a.top10.get(set.name) ?? [];
    const y = b.top10.get(set.name) ?? [];
    let shown = 0;
    for (let i = 0; i < Math.min(x.length, y.length) && shown < max; i++) {
      if (x[i]!.join(' ') === y[i]!.join(' ')) continue;
      shown++;
      out.push(`  ${set.name} ${JSON.stringify(set.bodies[i])}`, `    ${a.engine.padEnd(12)} ${x[i]!.join(' ')}`, `    ${b.engine.padEnd(12)} ${y[i]!.join(' ')}`);
    }
  }
  return out.length > 0 ? [`top 10 that differ (first ${max} per set):`, ...out] : [];
}
