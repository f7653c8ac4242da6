// Figures: table on stdout, JSON file under bench/out.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface Figure {
  name: string;
  value: number;
  unit: string;
}

export interface BenchResult {
  workload: string;
  date: string;
  machine: { cpus: number; cpuModel: string; totalMemGiB: number; node: string };
  dataset: string;
  figures: Figure[];
  error?: string;
}

export function machine(): BenchResult['machine'] {
  const cpus = os.cpus();
  return {
    cpus: cpus.length,
    cpuModel: cpus[0]?.model ?? 'unknown',
    totalMemGiB: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
  };
}

export function fmt(v: number): string {
  if (!Number.isFinite(v)) return String(v);
  if (Number.isInteger(v)) return v.toLocaleString('en-US');
  const abs = Math.abs(v);
  const digits = abs >= 1000 ? 0 : abs >= 100 ? 1 : abs >= 1 ? 2 : 3;
  return v.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

export function table(figures: readonly Figure[]): string {
  const rows = figures.map((f) => [f.name, fmt(f.value), f.unit]);
  const w0 = Math.max(6, ...rows.map((r) => r[0]!.length));
  const w1 = Math.max(5, ...rows.map((r) => r[1]!.length));
  const line = (a: string, b: string, c: string) => `${a.padEnd(w0)}  ${b.padStart(w1)}  ${c}`;
  return [line('figure', 'value', 'unit'), line('-'.repeat(w0), '-'.repeat(w1), '----'), ...rows.map((r) => line(r[0]!, r[1]!, r[2]!))].join('\n');
}

/** Writes <outDir>/<workload>-<ISO timestamp>.json and returns its path. */
export function writeJson(outDir: string, result: BenchResult): string {
  fs.mkdirSync(outDir, { recursive: true });
  const stamp = result.date.replace(/:/g, '-'); // ':' is awkward in file names on some systems
  const file = path.join(outDir, `${result.workload}-${stamp}.json`);
  fs.writeFileSync(file, JSON.stringify(result, null, 2) + '\n');
  return file;
}
