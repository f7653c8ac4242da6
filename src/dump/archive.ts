// The archive steps shared by dumps and snapshots: a staged directory packed into a gzip tar under a
// hidden temporary name, fsynced, then renamed into place, so that no reader ever sees a partial
// file; and the unpacking of such an archive.
import fs from 'node:fs';
import path from 'node:path';
import * as tar from 'tar';
import { fsyncPath } from '../engine/files.ts';

/** Packs every entry of `staging` (as `./<entry>`) into `target`, atomically; `mode` is applied before the rename. */
export async function packDirectory(staging: string, target: string, opts: { mode?: number } = {}): Promise<void> {
  const dir = path.dirname(target);
  const temp = path.join(dir, `.tmp-${path.basename(target)}`);
  const entries = fs.readdirSync(staging).sort().map((e) => `./${e}`);
  try {
    await tar.create({ gzip: { level: 6 }, file: temp, cwd: staging, portable: true }, entries);
    fsyncPath(temp);
    if (opts.mode !== undefined) fs.chmodSync(temp, opts.mode);
    fs.renameSync(temp, target);
  } catch (err) {
    fs.rmSync(temp, { force: true });
    throw err;
  }
  fsyncPath(dir, { directory: true });
}

/** Unpacks a gzip tar into `dir` (created if missing); entries may not leave it. */
export async function unpackArchive(file: string, dir: string): Promise<void> {
  fs.mkdirSync(dir, { recursive: true });
  await tar.extract({ file, cwd: dir, strict: true });
}

/** Removes what an archive killed midway left in `dir` (hidden staging directories and temporary files). */
export function removeStaleStaging(dir: string): void {
  if (!fs.existsSync(dir)) return;
  for (const entry of fs.readdirSync(dir)) {
    if (entry.startsWith('.tmp-')) fs.rmSync(path.join(dir, entry), { recursive: true, force: true });
  }
}
