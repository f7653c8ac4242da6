// The data directory (DESIGN.md §3) and its VERSION file (upgrade.md §2).
import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { API_VERSION } from '../api/version.ts';

export { API_VERSION };

const GUIDE = 'https://www.meilisearch.com/docs/learn/update_and_migration/updating';

/** A startup error: the process prints the message and exits non-zero. */
export class StartupError extends Error {}

export interface DataDir {
  root: string;
  tasks: string;
  auth: string;
  indexes: string;
  updateFiles: string;
  instanceUid: string | null;
  /** true when this start created the database */
  created: boolean;
}

/** Opens (or creates) a data directory, refusing one written by another version. */
export function openDataDir(root: string, opts: { upgradeDb?: boolean } = {}): DataDir {
  const exists = fs.existsSync(root) && fs.readdirSync(root).length > 0;
  if (exists) checkVersion(root, opts.upgradeDb ?? false);
  fs.mkdirSync(root, { recursive: true });
  const dirs = {
    root,
    tasks: path.join(root, 'tasks'),
    auth: path.join(root, 'auth'),
    indexes: path.join(root, 'indexes'),
    updateFiles: path.join(root, 'update_files'),
  };
  for (const d of [dirs.tasks, dirs.auth, dirs.indexes, dirs.updateFiles]) fs.mkdirSync(d, { recursive: true });
  if (!exists) writeAtomically(path.join(root, 'VERSION'), API_VERSION);
  const uidFile = path.join(root, 'instance-uid');
  if (!fs.existsSync(uidFile)) writeAtomically(uidFile, randomUUID());
  const instanceUid = fs.readFileSync(uidFile, 'utf8').trim() || null;
  return { ...dirs, instanceUid, created: !exists };
}

function checkVersion(root: string, upgradeDb: boolean): void {
  const file = path.join(root, 'VERSION');
  const text = fs.existsSync(file) ? fs.readFileSync(file, 'utf8').trim() : '';
  if (text === '') {
    throw new StartupError(`Meilisearch (v${API_VERSION}) failed to infer the version of the database.\n        To update Meilisearch please follow our guide on ${GUIDE}.`);
  }
  const parts = text.split('.');
  if (parts.length !== 3) {
    throw new StartupError(
      `Version file is corrupted and thus Meilisearch is unable to determine the version of the database. The version contains ${parts.length} parts instead of 3 (major, minor and patch)`,
    );
  }
  const names = ['major', 'minor', 'patch'];
  parts.forEach((p, i) => {
    if (!/^\d+$/.test(p)) {
      throw new StartupError(
        `Version file is corrupted and thus Meilisearch is unable to determine the version of the database. Could not parse the ${names[i]}: invalid digit found in string`,
      );
    }
  });
  if (text === API_VERSION) return;
  if (!upgradeDb) {
    throw new StartupError(
      `Your database version (${text}) is incompatible with your current engine version (${API_VERSION}).\n` +
        `To migrate data between Meilisearch versions, please follow our guide on ${GUIDE}.\n` +
        'Alternatively, you can set the `--upgrade-db` flag (or the `MEILI_UPGRADE_DB` environment variable) to upgrade the database on startup.',
    );
  }
  throw new StartupError(`Upgrading a database from version ${text} is not supported by this version of Muninn yet.`);
}

/** Writes a file through a temporary name and a rename, fsynced. */
export function writeAtomically(file: string, content: string): void {
  const tmp = `${file}.tmp-${process.pid}`;
  const fd = fs.openSync(tmp, 'w');
  try {
    fs.writeSync(fd, content);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  fs.renameSync(tmp, file);
}
