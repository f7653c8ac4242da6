// The real Meilisearch 1.50 binary, for side-by-side runs (`--vs-meili`). The gzipped binary lives
// outside the repo (../shared/tools/meilisearch/); it is unpacked into a temp dir for the run and
// started like Muninn: its own port and db dir, no analytics, WARN logs, a master key.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { sharedDir } from './shared-dir.ts';
import { freePort, randomKey, spawnServer, type RunningServer } from './server.ts';

export const MEILI_VERSION = '1.50.0';

/** Where the gzipped binary is expected: shared/tools/meilisearch/ beside the repository. */
export function defaultMeiliBinary(repoRoot: string): string {
  return path.join(sharedDir(repoRoot), 'tools', 'meilisearch', `meilisearch-${MEILI_VERSION}-linux-x64.gz`);
}

/**
 * An executable Meilisearch in `dir`: a `.gz` file is unpacked there, any other file is used as it
 * is. Null when the file does not exist (the caller skips Meilisearch and says why).
 */
export function prepareMeili(binary: string, dir: string): string | null {
  if (!fs.existsSync(binary)) return null;
  if (!binary.endsWith('.gz')) return binary;
  const out = path.join(dir, `meilisearch-${MEILI_VERSION}`);
  fs.writeFileSync(out, zlib.gunzipSync(fs.readFileSync(binary)), { mode: 0o755 });
  return out;
}

export interface MeiliOptions {
  executable: string;
  /** parent of the db dir; Meilisearch's dumps/ and snapshots/ defaults land here (its cwd) */
  workDir: string;
  dbPath: string;
  logFile: string;
  port?: number;
}

/** Starts Meilisearch on 127.0.0.1 with the same launch options the runner gives Muninn. */
export async function startMeili(o: MeiliOptions): Promise<RunningServer> {
  const port = o.port ?? (await freePort());
  const masterKey = randomKey();
  // MEILI_* variables of the caller's shell would override the flags below
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('MEILI_')));
  const args = ['--db-path', o.dbPath, '--http-addr', `127.0.0.1:${port}`, '--no-analytics', '--master-key', masterKey, '--log-level', 'WARN'];
  return spawnServer({ command: o.executable, args, cwd: o.workDir, env, logFile: o.logFile, port, masterKey });
}
