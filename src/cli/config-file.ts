// config.toml: locating, reading and key-checking the file (cli.md §1). Values are turned back into the text
// their MEILI_* variable would hold, which is how Meilisearch itself merges the file (it exports them to the
// environment), so the same grammar and the same validation apply to every source.
import fs from 'node:fs';
import path from 'node:path';
import { parse as parseToml, TomlError } from 'smol-toml';
import { closest } from './argv.ts';
import type { OptionSpec } from './specs.ts';
import { InvalidValue } from './values.ts';

export type ConfigOutcome =
  | { kind: 'none' }
  /** A startup error (Meilisearch exits 1 on these, outside the argument parser). */
  | { kind: 'error'; message: string }
  /** `path` is the path as given (or `./config.toml`), `values` the raw TOML value of each known key. */
  | { kind: 'ok'; path: string; values: Map<OptionSpec, unknown> };

export interface ConfigInput {
  /** `--config-file-path`, if given. */
  cliPath: string | undefined;
  /** `MEILI_CONFIG_FILE_PATH`, if set and non-empty. */
  envPath: string | undefined;
  cwd: string;
  readFile: (absolutePath: string) => string;
}

const DEFAULT_CONFIG_FILE = './config.toml';

/** Reads the configuration file; an absent default file is not an error, an unreadable explicit one is. */
export function loadConfigFile(input: ConfigInput, specs: readonly OptionSpec[]): ConfigOutcome {
  const explicit = input.cliPath ?? input.envPath;
  const shownPath = explicit ?? DEFAULT_CONFIG_FILE;
  let text: string;
  try {
    text = input.readFile(path.resolve(input.cwd, shownPath));
  } catch (err) {
    // Meilisearch ignores every read error of the default file, not only "not found".
    if (explicit === undefined) return { kind: 'none' };
    const reason = describeIoError(err);
    return { kind: 'error', message: `unable to open or read the ${quote(explicit)} configuration file: ${reason}.` };
  }

  let table: Record<string, unknown>;
  try {
    table = parseToml(text, { integersAsBigInt: 'asNeeded' });
  } catch (err) {
    const detail = err instanceof TomlError ? err.message.trimEnd() : String(err);
    return { kind: 'error', message: `unable to parse the ${quote(shownPath)} configuration file: ${detail}` };
  }

  const byKey = new Map<string, OptionSpec>();
  for (const spec of specs) {
    byKey.set(spec.tomlKey, spec);
    for (const alias of spec.aliases) byKey.set(alias.tomlKey, spec);
  }
  const values = new Map<OptionSpec, unknown>();
  for (const [key, value] of Object.entries(table)) {
    const spec = byKey.get(key);
    if (spec === undefined) {
      const suggestion = closest(key, [...byKey.keys()]);
      const hint =
        suggestion === undefined
          ? 'keys are the option names in snake_case (see --help)'
          : `did you mean \`${suggestion}\`?`;
      const message = `unknown field \`${key}\` in the ${quote(shownPath)} configuration file: ${hint}`;
      return { kind: 'error', message };
    }
    values.set(spec, value);
  }
  // Checked after the unknown keys, in the order Meilisearch reports them.
  const selfReference = [...values.keys()].find((spec) => spec.key === 'configFilePath');
  if (selfReference !== undefined) {
    return { kind: 'error', message: '`config_file_path` is not supported in the configuration file' };
  }
  return { kind: 'ok', path: shownPath, values };
}

/** Converts a TOML value to the text its environment variable would hold; throws InvalidValue on a type mismatch. */
export function tomlToText(spec: OptionSpec, value: unknown): string {
  const mismatch = (expected: string): never => {
    throw new InvalidValue(`invalid type: expected ${expected}, found ${tomlTypeName(value)}`);
  };
  const isInteger = typeof value === 'bigint' || (typeof value === 'number' && Number.isInteger(value));
  switch (spec.tomlShape) {
    case 'string':
      return typeof value === 'string' ? value : mismatch('a string');
    case 'boolean':
      return typeof value === 'boolean' ? String(value) : mismatch('a boolean');
    case 'integer':
    case 'threads':
    case 'bytes':
      return isInteger || typeof value === 'string' ? String(value) : mismatch(`an integer or a string`);
    case 'schedule':
      return isInteger || typeof value === 'boolean' ? String(value) : mismatch('a boolean or an integer');
    case 'list':
      if (typeof value === 'string') return value;
      if (Array.isArray(value) && value.every((item) => typeof item === 'string')) return value.join(',');
      return mismatch('a string or an array of strings');
  }
}

/** A TOML value as it would be written in the file, for error messages. */
export function showTomlValue(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(showTomlValue).join(', ')}]`;
  if (typeof value === 'object' && value !== null && !(value instanceof Date)) return tomlTypeName(value);
  return String(value);
}

function tomlTypeName(value: unknown): string {
  if (typeof value === 'string') return 'a string';
  if (typeof value === 'boolean') return 'a boolean';
  if (typeof value === 'bigint' || (typeof value === 'number' && Number.isInteger(value))) return 'an integer';
  if (typeof value === 'number') return 'a float';
  if (Array.isArray(value)) return 'an array';
  if (value instanceof Date) return 'a datetime';
  return 'a table';
}

/** Reads a file as strict UTF-8, failing like Rust's `read_to_string` on invalid bytes. */
export function readUtf8File(absolutePath: string): string {
  const bytes = fs.readFileSync(absolutePath);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new Error('stream did not contain valid UTF-8');
  }
}

// Rust's io::Error display (`No such file or directory (os error 2)`) keeps the message identical to Meilisearch.
const IO_ERROR_TEXT: Readonly<Record<string, string>> = {
  ENOENT: 'No such file or directory',
  EACCES: 'Permission denied',
  EPERM: 'Operation not permitted',
  EISDIR: 'Is a directory',
  ENOTDIR: 'Not a directory',
  ELOOP: 'Too many levels of symbolic links',
  ENAMETOOLONG: 'File name too long',
  EMFILE: 'Too many open files',
  EIO: 'Input/output error',
};

function describeIoError(err: unknown): string {
  const e = err as NodeJS.ErrnoException;
  const text = e.code === undefined ? undefined : IO_ERROR_TEXT[e.code];
  if (text !== undefined && typeof e.errno === 'number') return `${text} (os error ${Math.abs(e.errno)})`;
  return err instanceof Error ? err.message : String(err);
}

// Rust's `{:?}` of a path: double-quoted with escapes, which JSON matches for ordinary paths.
function quote(p: string): string {
  return JSON.stringify(p);
}
