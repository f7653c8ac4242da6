// `--help` and `--version` texts. Help is generated from the option table so it cannot drift from the parser.
import fs from 'node:fs';
import { displayFlag, type Group, type OptionSpec } from './specs.ts';

export const MEILISEARCH_API_VERSION = '1.50.0';

let cachedVersion: string | undefined;

/** Muninn's own version, from package.json (read once, lazily). */
export function muninnVersion(): string {
  if (cachedVersion === undefined) {
    try {
      const text = fs.readFileSync(new URL('../../package.json', import.meta.url), 'utf8');
      const pkg = JSON.parse(text) as { version?: unknown };
      cachedVersion = typeof pkg.version === 'string' ? pkg.version : 'unknown';
    } catch {
      // A relocated build without package.json next to it should still answer --version.
      cachedVersion = 'unknown';
    }
  }
  return cachedVersion;
}

/** The `--version` line. */
export function versionText(): string {
  return `muninn ${muninnVersion()} (Meilisearch API ${MEILISEARCH_API_VERSION})\n`;
}

/** The `--help` text: every option with its environment variable and default. */
export function helpText(specs: readonly OptionSpec[]): string {
  const lines = [
    `muninn ${muninnVersion()}: a search engine speaking the Meilisearch ${MEILISEARCH_API_VERSION} HTTP API`,
    '',
    'Usage: muninn [OPTIONS]',
    '',
    'Each option can be given as a flag, as its environment variable, or as a key of the TOML configuration',
    'file (the flag name in snake_case, e.g. `db_path`). Precedence: flag > environment variable > file > default.',
    'Switches take no value on the command line and `true`/`false` elsewhere.',
    'Sizes are bytes or a number with a unit: `100 MB`, `2 GiB`, `107.7Gb`',
    '(KB/MB/GB/TB are powers of 1000, KiB/MiB/GiB/TiB powers of 1024).',
  ];

  const groups = new Map<Group, OptionSpec[]>();
  for (const spec of specs) groups.set(spec.group, [...(groups.get(spec.group) ?? []), spec]);

  for (const [group, members] of groups) {
    lines.push('', `${group}:`);
    for (const spec of members) {
      lines.push(`  ${displayFlag(spec)}`, `      ${spec.help}`, `      ${annotations(spec)}`);
      for (const alias of spec.aliases) lines.push(`      Also accepted as --${alias.long} [env: ${alias.env}] (\`${alias.tomlKey}\` in the file).`);
    }
    if (group === 'Core') {
      lines.push('  -h, --help', '      Print this help.', '  -V, --version', '      Print the version.');
    }
  }
  return `${lines.join('\n')}\n`;
}

function annotations(spec: OptionSpec): string {
  const parts = [`[env: ${spec.env}]`];
  if (spec.key === 'configFilePath') parts.push('[not accepted in the config file]');
  if (spec.defaultHelp !== null) parts.push(`[default: ${spec.defaultHelp}]`);
  if (spec.ignoredInFile) parts.push('[ignored in the config file]');
  return parts.join(' ');
}
