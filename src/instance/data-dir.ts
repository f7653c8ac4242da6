// The data directory (DESIGN.md §3) and its VERSION file (upgrade.md §2).
import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { API_VERSION } from '../api/version.ts';
import { compareVersions, STORAGE_VERSION, UNVERSIONED } from '../engine/version.ts';
import { writeAtomically } from '../engine/files.ts';

export { API_VERSION, writeAtomically };

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
  /** with `--upgrade-db` on a database in an older storage format: that format (the upgrade's `from`) */
  upgradeFrom: string | null;
}

/** The file of the instance's storage format (engine/version.ts). */
export const STORAGE_FILE = 'muninn-version';

/** Opens (or creates) a data directory, refusing one written by another version. */
export function openDataDir(root: string, opts: { upgradeDb?: boolean } = {}): DataDir {
  const exists = fs.existsSync(root) && fs.readdirSync(root).length > 0;
  let upgradeFrom: string | null = null;
  if (exists) {
    checkVersion(root, opts.upgradeDb ?? false);
    upgradeFrom = checkStorageVersion(root, opts.upgradeDb ?? false);
  }
  fs.mkdirSync(root, { recursive: true });
  const dirs = {
    root,
    tasks: path.join(root, 'tasks'),
    auth: path.join(root, 'auth'),
    indexes: path.join(root, 'indexes'),
    updateFiles: path.join(root, 'update_files'),
  };
  for (const d of [dirs.tasks, dirs.auth, dirs.indexes, dirs.updateFiles]) fs.mkdirSync(d, { recursive: true });
  if (!exists) {
    writeAtomically(path.join(root, 'VERSION'), API_VERSION);
    writeAtomically(path.join(root, STORAGE_FILE), STORAGE_VERSION);
  }
  const uidFile = path.join(root, 'instance-uid');
  if (!fs.existsSync(uidFile)) writeAtomically(uidFile, randomUUID());
  const instanceUid = fs.readFileSync(uidFile, 'utf8').trim() || null;
  return { ...dirs, instanceUid, created: !exists, upgradeFrom };
}

/** The storage format a database records (`0.1.0` when it records none). */
export function storageVersionOf(root: string): string {
  const file = path.join(root, STORAGE_FILE);
  return fs.existsSync(file) ? fs.readFileSync(file, 'utf8').trim() : UNVERSIONED;
}

/**
 * The storage format check (decision 0011), worded as Meilisearch's version checks (upgrade.md §2,
 * §3) with Muninn's versions: null when the database is in this release's format, the older
 * format when `--upgrade-db` asks to upgrade it, otherwise a start-up error.
 */
function checkStorageVersion(root: string, upgradeDb: boolean): string | null {
  const stored = storageVersionOf(root);
  let order: number;
  try {
    order = compareVersions(stored, STORAGE_VERSION);
  } catch {
    throw new StartupError(`The \`${STORAGE_FILE}\` file is corrupted and thus Muninn is unable to determine the storage version of the database: ${JSON.stringify(stored)}`);
  }
  if (order === 0) return null;
  if (order > 0) throw new StartupError(`Database version ${stored} is higher than the Muninn version ${STORAGE_VERSION}. Downgrade is not supported`);
  if (!upgradeDb) {
    throw new StartupError(
      `Your database version (${stored}) is incompatible with your current Muninn version (${STORAGE_VERSION}).\n` +
        'To migrate data between Muninn versions, create a dump with the version that wrote the database and import it with this one (`--import-dump`).\n' +
        'Alternatively, you can set the `--upgrade-db` flag (or the `MEILI_UPGRADE_DB` environment variable) to upgrade the database on startup.',
    );
  }
  return stored;
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
  if (compareVersions(text, API_VERSION) > 0) {
    throw new StartupError(`Database version ${text} is higher than the Meilisearch version ${API_VERSION}. Downgrade is not supported`);
  }
  // a database of another Meilisearch version is in Meilisearch's own storage, which Muninn does not read
  throw new StartupError(
    `A database written by Meilisearch ${text} cannot be upgraded in place by Muninn. Create a dump with Meilisearch v${text} and import it with \`--import-dump\``,
  );
}
