// The extractor thread: turns payload files into packed chunks for the writer (protocol.ts).
import fs from 'node:fs';
import { workerData, type MessagePort } from 'node:worker_threads';
import { EngineError } from '../../errors.ts';
import { lowerThreadPriority } from '../../threads/priority.ts';
import { fieldPaths } from '../../index/fields.ts';
import { documentId } from '../../index/primary-key.ts';
import { CHUNK_DOCS, CONSUMED, HEARTBEAT, IN_FLIGHT, PRODUCED, STOP, type Chunk, type ExtractJob, type FromExtractor } from './protocol.ts';

// indexing must never slow the HTTP thread (search and enqueue latency)
lowerThreadPriority();

const control = new Int32Array(workerData.control as SharedArrayBuffer);
const port = workerData.port as MessagePort;
const READ = 4 * 1024 * 1024;

port.on('message', (job: ExtractJob) => {
  try {
    run(job);
  } catch (err) {
    const e = err instanceof EngineError ? err : new EngineError('internal', (err as Error)?.stack ?? String(err), { prefixed: false });
    send({ type: 'error', jobId: job.jobId, kind: e.kind, message: e.message, prefixed: e.prefixed }, []);
  }
});

/** Posts a message once the writer is less than IN_FLIGHT chunks behind; false when told to stop. */
function send(m: FromExtractor, transfer: ArrayBuffer[]): boolean {
  for (;;) {
    if (Atomics.load(control, STOP) !== 0) return false;
    const consumed = Atomics.load(control, CONSUMED);
    if (Atomics.load(control, PRODUCED) - consumed < IN_FLIGHT) break;
    Atomics.add(control, HEARTBEAT, 1);
    Atomics.wait(control, CONSUMED, consumed, 50);
  }
  port.postMessage(m, transfer);
  Atomics.add(control, PRODUCED, 1);
  Atomics.notify(control, PRODUCED);
  return true;
}

/** Documents of the chunk being filled; their JSON is copied once into one growing buffer. */
class Pending {
  ids: string[] = [];
  json = Buffer.allocUnsafe(1 << 20);
  bytes = 0;
  ends: number[] = [];
  shapes: number[] = [];
  newShapes: [number, string[]][] = [];

  push(id: string, src: Buffer, start: number, end: number, shape: number): void {
    const len = end - start;
    if (this.bytes + len > this.json.length) {
      const bigger = Buffer.allocUnsafe(Math.max(this.json.length * 2, this.bytes + len));
      this.json.copy(bigger, 0, 0, this.bytes);
      this.json = bigger;
    }
    src.copy(this.json, this.bytes, start, end);
    this.bytes += len;
    this.ids.push(id);
    this.ends.push(this.bytes);
    this.shapes.push(shape);
  }
}

function run(job: ExtractJob): void {
  const shapeIds = new Map<string, number>();
  let pending = new Pending();
  const flush = (last: boolean): boolean => {
    const json = pending.json.subarray(0, pending.bytes);
    const chunk: Chunk = {
      type: 'chunk',
      jobId: job.jobId,
      ids: pending.ids,
      json,
      ends: Uint32Array.from(pending.ends),
      shapes: Uint32Array.from(pending.shapes),
      newShapes: pending.newShapes,
      last,
    };
    pending = new Pending();
    return send(chunk, [json.buffer as ArrayBuffer, chunk.ends.buffer as ArrayBuffer, chunk.shapes.buffer as ArrayBuffer]);
  };
  const line = (data: Buffer, start: number, end: number): boolean => {
    const doc = JSON.parse(data.toString('utf8', start, end)) as Record<string, unknown>;
    const id = documentId(doc, job.primaryKey);
    const paths = fieldPaths(doc);
    const key = paths.join('\u0000');
    let shape = shapeIds.get(key);
    if (shape === undefined) {
      shape = shapeIds.size;
      shapeIds.set(key, shape);
      pending.newShapes.push([shape, [...paths]]);
    }
    pending.push(id, data, start, end, shape);
    if ((pending.ids.length & 255) === 0) Atomics.add(control, HEARTBEAT, 1);
    return pending.ids.length < CHUNK_DOCS || flush(false);
  };
  const fd = fs.openSync(job.file, 'r');
  try {
    const buf = Buffer.allocUnsafe(READ);
    let carry: Buffer | null = null;
    for (;;) {
      if (Atomics.load(control, STOP) !== 0) return;
      Atomics.add(control, HEARTBEAT, 1);
      const n = fs.readSync(fd, buf, 0, READ, null);
      if (n === 0) break;
      let data = buf.subarray(0, n);
      if (carry) data = Buffer.concat([carry, data]);
      let start = 0;
      for (let nl = data.indexOf(10, start); nl !== -1; nl = data.indexOf(10, start)) {
        if (nl > start && !line(data, start, nl)) return;
        start = nl + 1;
      }
      carry = start < data.length ? Buffer.from(data.subarray(start)) : null;
    }
    if (carry && carry.length > 0 && !line(carry, 0, carry.length)) return;
    flush(true);
  } finally {
    fs.closeSync(fd);
  }
}
