// Command-line tokenizer. Hand-rolled rather than node:util parseArgs because `--schedule-snapshot [<SECONDS>]`
// takes an optional value, and because the errors mimic clap's wording (the parser Meilisearch uses).
import { displayFlag, type OptionSpec } from './specs.ts';

export type ArgvOutcome =
  | { kind: 'help' }
  | { kind: 'version' }
  | { kind: 'error'; message: string }
  /** Raw text per option given on the command line; switches map to `'true'`, a bare optional value to `''`. */
  | { kind: 'ok'; values: Map<OptionSpec, string> };

/** Tokenizes `argv` (without the node/script prefix); `--help`/`--version` win only if reached before an error. */
export function parseArgv(argv: readonly string[], specs: readonly OptionSpec[]): ArgvOutcome {
  const byLong = new Map<string, OptionSpec>();
  for (const spec of specs) {
    byLong.set(spec.long, spec);
    for (const alias of spec.aliases) byLong.set(alias.long, spec);
  }
  const seen = new Set<string>();
  const values = new Map<OptionSpec, string>();

  for (let i = 0; i < argv.length; i += 1) {
    const token = argv[i] ?? '';

    if (token === '--') {
      // Nothing is positional, so anything after the separator is unexpected.
      const next = argv[i + 1];
      return next === undefined ? { kind: 'ok', values } : unexpected(next, []);
    }

    if (!token.startsWith('--')) {
      if (token.length < 2 || !token.startsWith('-')) return unexpected(token, []);
      // Short flags only exist for help and version; in a cluster like `-hV` the first one acts.
      const letter = token.charAt(1);
      if (letter === 'h') return { kind: 'help' };
      if (letter === 'V') return { kind: 'version' };
      return unexpected(`-${letter}`, []);
    }

    const eq = token.indexOf('=');
    const name = token.slice(2, eq === -1 ? undefined : eq);
    const inline = eq === -1 ? undefined : token.slice(eq + 1);

    if (name === 'help' || name === 'version') {
      if (inline === undefined) return { kind: name };
      return error(`unexpected value '${inline}' for '--${name}' found; no more were expected`);
    }

    const spec = byLong.get(name);
    if (spec === undefined) {
      return unexpected(token.slice(0, eq === -1 ? undefined : eq), [...byLong.keys(), 'help', 'version']);
    }
    // An option given once under each of its names is fine; the same name twice is not.
    if (seen.has(name)) return error(`the argument '${displayFlag(spec)}' cannot be used multiple times`);
    seen.add(name);

    if (spec.valueName === null) {
      if (inline !== undefined) {
        return error(`unexpected value '${inline}' for '${displayFlag(spec)}' found; no more were expected`);
      }
      values.set(spec, 'true');
      continue;
    }

    if (inline !== undefined) {
      values.set(spec, inline);
      continue;
    }
    const next = argv[i + 1];
    if (next !== undefined && !looksLikeFlag(next)) {
      values.set(spec, next);
      i += 1;
    } else if (spec.optionalValue) {
      values.set(spec, '');
    } else {
      return error(`a value is required for '${displayFlag(spec)}' but none was supplied`);
    }
  }
  return { kind: 'ok', values };
}

// Unlike clap, only `--...`, `-h` and `-V` end a value: generated master keys are URL-safe base64 and may
// start with `-`, and the launch messages suggest pasting them after `--master-key`.
function looksLikeFlag(token: string): boolean {
  return token.startsWith('--') || token === '-h' || token === '-V';
}

function error(message: string): ArgvOutcome {
  return { kind: 'error', message: `error: ${message}` };
}

function unexpected(token: string, longNames: readonly string[]): ArgvOutcome {
  const close = token.startsWith('--') ? closest(token.slice(2), longNames) : undefined;
  const tip = close === undefined ? '' : `\n\n  tip: a similar argument exists: '--${close}'`;
  return error(`unexpected argument '${token}' found${tip}`);
}

/** The candidate nearest to `word` by edit distance, if it is plausibly a typo of it. */
export function closest(word: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of candidates) {
    const distance = editDistance(word, candidate);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  // A third of the word may differ: catches `db-pth` or `masterkey` without suggesting unrelated names.
  return bestDistance <= Math.max(1, Math.floor(word.length / 3)) ? best : undefined;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1) {
      const substitution = (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min(substitution, (previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1));
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}
