// Batches in `batches/queue.jsonl` (dumps-snapshots.md §2): the API shape without `progress` and
// `duration`, with `enqueuedAt: { earliest, oldest }` and `stopReason`. Meilisearch 1.50 writes the
// newest enqueue time under `earliest` and the oldest under `oldest`; so do we, and read them so.
import type { Batch, BatchStats } from '../api/tasks/model.ts';
import { DumpError, formatDate, parseDate, parseOptionalDate } from './dates.ts';

type Obj = Record<string, unknown>;

export function batchToDump(batch: Batch): Obj {
  const out: Obj = { uid: batch.uid, details: batch.details, stats: batch.stats, startedAt: formatDate(batch.startedAt) };
  if (batch.finishedAt !== null) out.finishedAt = formatDate(batch.finishedAt);
  if (batch.enqueuedAtRange) out.enqueuedAt = { earliest: formatDate(batch.enqueuedAtRange[1]), oldest: formatDate(batch.enqueuedAtRange[0]) };
  out.stopReason = batch.batchStrategy;
  return out;
}

export function batchFromDump(line: Obj): Batch {
  const uid = line.uid;
  if (typeof uid !== 'number' || !Number.isInteger(uid) || uid < 0) throw new DumpError(`invalid batch uid in the dump: ${JSON.stringify(uid)}`);
  const stats = isObj(line.stats) ? (line.stats as unknown as BatchStats) : { totalNbTasks: 0, status: {}, types: {}, indexUids: {} };
  const batch: Batch = {
    uid,
    details: isObj(line.details) ? line.details : {},
    stats: { ...stats, status: stats.status ?? {}, types: stats.types ?? {}, indexUids: stats.indexUids ?? {} },
    startedAt: parseDate(line.startedAt, 'startedAt'),
    finishedAt: parseOptionalDate(line.finishedAt, 'finishedAt'),
    batchStrategy: typeof line.stopReason === 'string' ? line.stopReason : 'unspecified',
  };
  if (isObj(line.enqueuedAt)) {
    const a = parseDate(line.enqueuedAt.earliest, 'enqueuedAt.earliest');
    const b = parseDate(line.enqueuedAt.oldest, 'enqueuedAt.oldest');
    batch.enqueuedAtRange = [Math.min(a, b), Math.max(a, b)];
  }
  return batch;
}

function isObj(v: unknown): v is Obj {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}
