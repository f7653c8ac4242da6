// The writer's side of an extractor thread (protocol.ts): a synchronous iterator over the
// documents of a payload file, parsed on another core.
import { MessageChannel, Worker, receiveMessageOnPort, type MessagePort } from 'node:worker_threads';
import { EngineError, type EngineErrorKind } from '../../errors.ts';
import { siblingModule, WORKER_BOOT } from '../../threads/entry.ts';
import { CONSUMED, CONTROL_WORDS, HEARTBEAT, PRODUCED, SILENCE_LIMIT_MS, STOP, type Chunk, type ExtractJob, type FromExtractor } from './protocol.ts';

export interface ExtractedDocument {
  id: string;
  /** the document's JSON text; valid until the next iteration */
  json: Uint8Array;
  paths: readonly string[];
}

export class Extractor {
  readonly #worker: Worker;
  readonly #port: MessagePort;
  readonly #control = new Int32Array(new SharedArrayBuffer(4 * CONTROL_WORDS));
  #jobId = 0;
  #dead = false;

  private constructor() {
    const { port1, port2 } = new MessageChannel();
    this.#port = port1;
    this.#worker = new Worker(WORKER_BOOT, {
      workerData: { entry: siblingModule('worker', import.meta.url), control: this.#control.buffer, port: port2 },
      transferList: [port2],
    });
    this.#worker.unref();
  }

  static start(): Extractor {
    return new Extractor();
  }

  /**
   * The documents of an NDJSON payload file in order. Throws the extractor's EngineError at
   * the document that has one; `shouldAbort` is polled between chunks.
   */
  *documents(file: string, primaryKey: string, shouldAbort: () => boolean = () => false): Generator<ExtractedDocument> {
    const jobId = ++this.#jobId;
    const c = this.#control;
    Atomics.store(c, PRODUCED, 0);
    Atomics.store(c, CONSUMED, 0);
    Atomics.store(c, STOP, 0);
    while (receiveMessageOnPort(this.#port)) {
      // drop what an interrupted job left behind
    }
    this.#port.postMessage({ type: 'job', jobId, file, primaryKey } satisfies ExtractJob);
    const shapes = new Map<number, string[]>();
    let done = false;
    try {
      while (!done) {
        const m = this.#next(jobId, shouldAbort);
        if (m.type === 'error') throw new EngineError(m.kind as EngineErrorKind, m.message, { prefixed: m.prefixed });
        for (const [id, paths] of m.newShapes) shapes.set(id, paths);
        yield* unpack(m, shapes);
        done = m.last;
      }
    } finally {
      if (!done) {
        Atomics.store(c, STOP, 1);
        Atomics.notify(c, CONSUMED);
      }
    }
  }

  /** Blocks until the next message of this job arrives; fails if the extractor falls silent. */
  #next(jobId: number, shouldAbort: () => boolean): FromExtractor {
    const c = this.#control;
    let beat = Atomics.load(c, HEARTBEAT);
    let lastBeatAt = Date.now();
    for (;;) {
      if (shouldAbort()) throw new ExtractionStopped();
      const got = receiveMessageOnPort(this.#port);
      if (got) {
        Atomics.add(c, CONSUMED, 1);
        Atomics.notify(c, CONSUMED);
        const m = got.message as FromExtractor;
        if (m.jobId === jobId) return m;
        continue;
      }
      Atomics.wait(c, PRODUCED, Atomics.load(c, PRODUCED), 20);
      const now = Atomics.load(c, HEARTBEAT);
      if (now !== beat) {
        beat = now;
        lastBeatAt = Date.now();
      } else if (Date.now() - lastBeatAt > SILENCE_LIMIT_MS) {
        // the thread died (its exit event cannot reach us while we wait synchronously)
        this.#dead = true;
        throw new EngineError('internal', 'the document extractor thread stopped responding', { prefixed: false });
      }
    }
  }

  /** True once the thread is known to be gone: the owner starts a new extractor. */
  get dead(): boolean {
    return this.#dead;
  }

  async close(): Promise<void> {
    Atomics.store(this.#control, STOP, 1);
    Atomics.notify(this.#control, CONSUMED);
    this.#port.close();
    await this.#worker.terminate();
  }
}

/** Raised inside `documents` when `shouldAbort` turns true; callers map it to their own abort. */
export class ExtractionStopped extends Error {
  constructor() {
    super('extraction stopped');
  }
}

function* unpack(m: Chunk, shapes: Map<number, string[]>): Generator<ExtractedDocument> {
  const json = new Uint8Array(m.json.buffer, m.json.byteOffset, m.json.byteLength);
  let start = 0;
  for (let i = 0; i < m.ids.length; i++) {
    const end = m.ends[i]!;
    yield { id: m.ids[i]!, json: json.subarray(start, end), paths: shapes.get(m.shapes[i]!)! };
    start = end;
  }
}
