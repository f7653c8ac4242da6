// Payload ingestion throughput: `node --import tsx bench/payload.ts [runs]`.
// Runs writeDocumentsPayload end to end (64 KiB body chunks, as an HTTP request delivers them,
// NDJSON update file written and fsynced) on the geonames cities dataset in four formats, and
// prints MB/s of input. Each format is run twice to warm up, then `runs` times (default 7); every
// run writes a fresh file, as a real update does. The dataset is read from ../shared/datasets.
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { unlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeDocumentsPayload, type PayloadFormat } from '../src/api/documents/payload.ts';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DATASET = path.resolve(repoRoot, '../shared/datasets/geo-cities-geonames-135k/cities.ndjson');
const CHUNK = 64 * 1024;
const WARMUP = 2;
const RUNS = Number(process.argv[2] ?? 7);

async function* chunks(bytes: Buffer): AsyncGenerator<Buffer> {
  for (let at = 0; at < bytes.length; at += CHUNK) yield bytes.subarray(at, at + CHUNK);
}

function toCsv(docs: Record<string, unknown>[]): Buffer {
  const keys = ['id', 'name', 'country', 'altCountry', 'adminCode', 'featureCode', 'population'];
  const cell = (value: unknown): string => {
    const text = value === undefined || value === null ? '' : String(value);
    return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
  };
  const header = 'id:number,name,country,altCountry,adminCode,featureCode,population:number,lat:number,lng:number';
  const rows = docs.map((doc) => {
    const geo = doc['_geo'] as { lat: number; lng: number };
    return [...keys.map((key) => cell(doc[key])), geo.lat, geo.lng].join(',');
  });
  return Buffer.from([header, ...rows].join('\n') + '\n');
}

const percentile = (sorted: number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

async function measure(dir: string, name: string, format: PayloadFormat, payload: Buffer): Promise<void> {
  const times: number[] = [];
  const cpuTimes: number[] = [];
  let documents = 0;
  for (let run = 0; run < WARMUP + RUNS; run++) {
    const outPath = path.join(dir, `update-${run}.ndjson`);
    const cpuStart = process.cpuUsage();
    const start = process.hrtime.bigint();
    const result = await writeDocumentsPayload({
      body: chunks(payload),
      contentEncoding: undefined,
      format,
      delimiter: 44,
      limit: 1_000_000_000,
      limitText: '1 GB',
      outPath,
    });
    const ms = Number(process.hrtime.bigint() - start) / 1e6;
    const cpu = process.cpuUsage(cpuStart);
    await unlink(outPath);
    documents = result.documentsCount;
    if (run >= WARMUP) {
      times.push(ms);
      cpuTimes.push((cpu.user + cpu.system) / 1000);
    }
  }
  const sorted = [...times].sort((a, b) => a - b);
  const mbps = (ms: number): string => ((payload.length / 1e6 / (ms / 1000)).toFixed(0) + ' MB/s').padStart(10);
  console.log(
    `${name.padEnd(20)} ${(payload.length / 1e6).toFixed(1).padStart(5)} MB ${String(documents).padStart(7)} docs` +
      `  best ${mbps(sorted[0]!)}  median ${mbps(percentile(sorted, 50))}  worst ${mbps(sorted[sorted.length - 1]!)}` +
      `  cpu ${Math.min(...cpuTimes).toFixed(0)} ms  (wall ${sorted.map((ms) => ms.toFixed(0)).join(' ')} ms)`,
  );
}

async function main(): Promise<void> {
  statSync(DATASET);
  const ndjson = readFileSync(DATASET);
  const docs = ndjson
    .toString('utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
  const payloads: [string, PayloadFormat, Buffer][] = [
    ['ndjson', 'ndjson', ndjson],
    ['json array', 'json', Buffer.from(JSON.stringify(docs))],
    ['json array (pretty)', 'json', Buffer.from(JSON.stringify(docs, null, 2))],
    ['csv', 'csv', toCsv(docs)],
  ];
  const dir = mkdtempSync(path.join(tmpdir(), 'muninn-bench-payload-'));
  try {
    console.log(`writeDocumentsPayload, ${CHUNK / 1024} KiB chunks, ${WARMUP} warm-up runs + ${RUNS} runs, node ${process.version}`);
    console.log('MB/s of input, wall clock from the first byte to the fsynced file; cpu: least process CPU time of a run');
    for (const [name, format, payload] of payloads) await measure(dir, name, format, payload);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
