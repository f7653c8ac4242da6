// `--import-dump` and `--import-snapshot` at start-up (dumps-snapshots.md §3, §5): the decision table, then the import in
// Meilisearch's order (instance uid, keys, experimental features, indexes, batches, tasks). A
// failed import removes the whole database directory and stops the process with the error.
import fs from 'node:fs';
import path from 'node:path';
import { DumpError, DumpReader, unpackArchive } from '../dump/index.ts';
import { importIndexes, importQueue } from '../tasks/dump-import.ts';
import { FEATURE_KEYS, type FeatureKey } from '../tasks/features.ts';
import type { StoredWebhooks } from '../tasks/webhooks.ts';
import { canonicalUuid } from '../auth/uuid.ts';
import { StartupError, writeAtomically } from './data-dir.ts';
import type { Instance } from './index.ts';

export interface ImportDumpOptions {
  path: string;
  ignoreMissing: boolean;
  ignoreIfDbExists: boolean;
}

/**
 * Whether a dump (or a snapshot) is to be imported into `dbPath`; throws the start-up errors of the
 * decision table, in Meilisearch's order. A snapshot's missing-file message has no quotes.
 */
export function shouldImport(dbPath: string, opts: ImportDumpOptions, what: 'dump' | 'snapshot'): boolean {
  const emptyDb = !fs.existsSync(dbPath) || fs.readdirSync(dbPath).length === 0;
  const fileExists = fs.existsSync(opts.path);
  if (emptyDb && fileExists) return true;
  if (!emptyDb && !opts.ignoreIfDbExists) {
    throw new StartupError(`database already exists at "${fs.realpathSync(dbPath)}", try to delete it or rename it`);
  }
  if (!fileExists && !opts.ignoreMissing) {
    throw new StartupError(what === 'dump' ? `dump doesn't exist at "${opts.path}"` : `snapshot doesn't exist at ${opts.path}`);
  }
  return false;
}

/** Unpacks a snapshot into the (empty) database directory; the directory is removed when that fails. */
export async function importSnapshot(dbPath: string, file: string): Promise<void> {
  try {
    await unpackArchive(file, dbPath);
  } catch (err) {
    fs.rmSync(dbPath, { recursive: true, force: true });
    throw new StartupError(`the snapshot could not be imported: ${(err as Error).message}`);
  }
}

/** The webhooks of `webhooks.json` (`{"webhooks": {uuid: {url, headers}}}`), entries of another shape left out. */
function webhooksFromDump(file: Record<string, unknown> | null): StoredWebhooks {
  const out: StoredWebhooks = {};
  const all = file?.webhooks;
  if (all === null || typeof all !== 'object') return out;
  for (const [uuid, w] of Object.entries(all as Record<string, unknown>)) {
    const { url, headers } = (w ?? {}) as { url?: unknown; headers?: unknown };
    if (typeof url !== 'string' || canonicalUuid(uuid) === null) continue;
    const kept: Record<string, string> = {};
    if (headers !== null && typeof headers === 'object') for (const [k, v] of Object.entries(headers)) if (typeof v === 'string') kept[k] = v;
    out[canonicalUuid(uuid)!] = { url, headers: kept };
  }
  return out;
}

/** Imports the dump into the freshly created database of `instance`. */
export async function importDump(instance: Instance, file: string): Promise<void> {
  const log = instance.options.log;
  // unpacked beside the database: the documents files are then moved, not copied, into it
  let dump: DumpReader | null = null;
  try {
    dump = await DumpReader.open(file, path.dirname(path.resolve(instance.dataDir.root)));
    log?.('info', `importing a dump written by Meilisearch ${dump.metadata.dbVersion} on ${dump.metadata.dumpDate}`);
    const uid = dump.instanceUid();
    if (uid !== null) {
      writeAtomically(path.join(instance.dataDir.root, 'instance-uid'), uid);
      instance.dataDir.instanceUid = uid;
    }
    await instance.keys.replaceAll(dump.keys());
    const features = dump.features();
    if (features !== null) {
      const patch: Partial<Record<FeatureKey, boolean>> = {};
      for (const k of FEATURE_KEYS) if (typeof features[k] === 'boolean') patch[k] = features[k] as boolean;
      await instance.features.update(patch);
    }
    const target = { queue: instance.queue, registry: instance.indexes, files: instance.files, ...(log ? { log } : {}) };
    const indexes = await importIndexes(dump, target);
    const counts = importQueue(dump, target);
    // after the batches, so that webhooks are sent only what finishes from now on
    instance.webhooks.replaceAll(webhooksFromDump(dump.webhooks()));
    await instance.queue.durable();
    log?.('info', `imported ${indexes.length} index(es), ${counts.tasks} task(s) and ${counts.batches} batch(es) from the dump`);
  } catch (err) {
    if (err instanceof DumpError) throw new StartupError(`the dump could not be imported: ${err.message}`);
    throw err;
  } finally {
    dump?.close();
  }
}
