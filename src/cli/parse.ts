// Resolution of the launch options: flag > MEILI_* variable > config file > default (cli.md §1), then the
// relationship rules and the master key rules. Pure apart from reading the config file: it never exits.
// The relationships (clap's `requires` / `conflicts_with` in Meilisearch) apply whatever the source of a value,
// as clap counts environment values as given; messages name the actual source.
import { parseArgv } from './argv.ts';
import { loadConfigFile, readUtf8File, showTomlValue, tomlToText } from './config-file.ts';
import { helpText, versionText } from './help.ts';
import { checkMasterKey } from './master-key.ts';
import { defaultBatchedTasksTotalSize, defaultOptions, detectMachine, type Machine, type Options } from './options.ts';
import { displayFlag, OPTION_SPECS, specOf, type OptionSpec } from './specs.ts';
import { InvalidValue } from './values.ts';

export interface CliInput {
  argv: string[];
  env: Record<string, string | undefined>;
  cwd: string;
  /** Reads a file by absolute path; defaults to a strict UTF-8 read from disk. */
  readFile?: (path: string) => string;
  /** Bytes; defaults to the machine's memory (or its cgroup limit). */
  totalMemory?: number;
  /** Defaults to `os.availableParallelism()`. */
  cpuCount?: number;
}

export type CliOutcome =
  /** `given`: each option set by a flag, a variable or the file (a switch set to false excluded), and how messages name it. */
  | { kind: 'run'; options: Options; warnings: string[]; given: ReadonlyMap<keyof Options, string> }
  | { kind: 'exit'; code: number; stdout: string; stderr: string };

/** Where a value came from, for messages. */
type Source = { kind: 'cli' } | { kind: 'env'; name: string } | { kind: 'file'; path: string; value: unknown };

const HELP_HINT = "\n\nFor more information, try '--help'.\n";

/** Parses flags, MEILI_* env vars and config.toml with the precedence of cli.md §1. Never exits the process itself. */
export function parseCli(input: CliInput): CliOutcome {
  const argv = parseArgv(input.argv, OPTION_SPECS);
  if (argv.kind === 'help') return { kind: 'exit', code: 0, stdout: helpText(OPTION_SPECS), stderr: '' };
  if (argv.kind === 'version') return { kind: 'exit', code: 0, stdout: versionText(), stderr: '' };
  if (argv.kind === 'error') return usageError(argv.message);
  const cli = argv.values;

  const machine = resolveMachine(input);
  // An empty variable counts as unset: `MEILI_X=` is how shells and compose files leave a setting out.
  const envValue = (name: string): string | undefined => (input.env[name] === '' ? undefined : input.env[name]);

  const configSpec = specOf('configFilePath');
  const cliConfigPath = cli.get(configSpec);
  if (cliConfigPath !== undefined) {
    const problem = validate(configSpec, cliConfigPath, { kind: 'cli' }, `'${cliConfigPath}'`, machine);
    if (problem !== null) return usageError(problem);
  }
  const readFile = input.readFile ?? readUtf8File;
  const envPath = envValue(configSpec.env);
  const config = loadConfigFile({ cliPath: cliConfigPath, envPath, cwd: input.cwd, readFile }, OPTION_SPECS);
  if (config.kind === 'error') return fatal(config.message);

  const warnings: string[] = [];
  // Every file value is checked, even one a flag overrides: a broken config file should not lie in wait.
  const fileText = new Map<OptionSpec, { text: string; source: Source }>();
  if (config.kind === 'ok') {
    for (const [spec, value] of config.values) {
      const source: Source = { kind: 'file', path: config.path, value };
      let text: string;
      try {
        text = tomlToText(spec, value);
      } catch (err) {
        return usageError(invalidValueMessage(spec, source, showTomlValue(value), err));
      }
      const problem = validate(spec, text, source, showTomlValue(value), machine);
      if (problem !== null) return usageError(problem);
      if (spec.ignoredInFile) {
        warnings.push(
          `\`${spec.tomlKey}\` is set in the ${JSON.stringify(config.path)} configuration file but has no ` +
            `effect there (as in Meilisearch); use '--${spec.long}' or ${spec.env} instead.`,
        );
      } else {
        fileText.set(spec, { text, source });
      }
    }
  }

  const options = defaultOptions(machine);
  const present = new Map<OptionSpec, Source>();
  for (const spec of OPTION_SPECS) {
    if (spec === configSpec) continue;
    const chosen = pick(spec, cli, envValue, fileText);
    if (chosen === undefined) continue;
    try {
      spec.assign(options, chosen.text, machine);
    } catch (err) {
      const shown = chosen.source.kind === 'file' ? showTomlValue(chosen.source.value) : `'${chosen.text}'`;
      return usageError(invalidValueMessage(spec, chosen.source, shown, err));
    }
    // A switch explicitly turned off is not "given" as far as `requires`/`conflicts` go.
    if (!(spec.valueName === null && chosen.text.toLowerCase() === 'false')) present.set(spec, chosen.source);
  }
  options.configFilePath = config.kind === 'ok' ? config.path : null;
  if (!present.has(specOf('experimentalLimitBatchedTasksTotalSize'))) {
    options.experimentalLimitBatchedTasksTotalSize = defaultBatchedTasksTotalSize(options.maxIndexingMemory);
  }

  const conflict = checkRelationships(present);
  if (conflict !== null) return usageError(conflict);

  const masterKey = checkMasterKey(options.env, options.masterKey);
  if (masterKey.kind === 'fatal') return fatal(masterKey.message);
  if (masterKey.warning !== null) warnings.push(masterKey.warning);
  const given = new Map<keyof Options, string>();
  for (const [spec, source] of present) given.set(spec.key, origin(spec, source));
  return { kind: 'run', options, warnings, given };
}

function resolveMachine(input: CliInput): Machine {
  if (input.totalMemory !== undefined && input.cpuCount !== undefined) {
    return { totalMemory: input.totalMemory, cpuCount: input.cpuCount };
  }
  const detected = detectMachine();
  return { totalMemory: input.totalMemory ?? detected.totalMemory, cpuCount: input.cpuCount ?? detected.cpuCount };
}

function pick(
  spec: OptionSpec,
  cli: ReadonlyMap<OptionSpec, string>,
  envValue: (name: string) => string | undefined,
  fileText: ReadonlyMap<OptionSpec, { text: string; source: Source }>,
): { text: string; source: Source } | undefined {
  const fromCli = cli.get(spec);
  if (fromCli !== undefined) return { text: fromCli, source: { kind: 'cli' } };
  const fromEnv = envValue(spec.env);
  if (fromEnv !== undefined) return { text: fromEnv, source: { kind: 'env', name: spec.env } };
  for (const alias of spec.aliases) {
    const fromAlias = envValue(alias.env);
    if (fromAlias !== undefined) return { text: fromAlias, source: { kind: 'env', name: alias.env } };
  }
  return fileText.get(spec);
}

// Runs the parser on a scratch copy, only to know whether the text is acceptable.
// `shown` is the value as quoted in the error message.
function validate(spec: OptionSpec, text: string, source: Source, shown: string, machine: Machine): string | null {
  try {
    spec.assign(defaultOptions(machine), text, machine);
    return null;
  } catch (err) {
    return invalidValueMessage(spec, source, shown, err);
  }
}

function invalidValueMessage(spec: OptionSpec, source: Source, shown: string, err: unknown): string {
  if (!(err instanceof InvalidValue)) throw err;
  let head: string;
  switch (source.kind) {
    case 'cli':
      head = `invalid value ${shown} for '${displayFlag(spec)}'`;
      break;
    case 'env':
      head = `invalid value ${shown} for the environment variable ${source.name} (read as '${displayFlag(spec)}')`;
      break;
    case 'file':
      head = `invalid value ${shown} for \`${spec.tomlKey}\` in the ${JSON.stringify(source.path)} configuration file`;
      break;
  }
  const detail = err.message === '' ? '' : `: ${err.message}`;
  const possible = err.possibleValues === undefined ? '' : `\n  [possible values: ${err.possibleValues.join(', ')}]`;
  return `error: ${head}${detail}${possible}`;
}

function usageError(message: string): CliOutcome {
  return { kind: 'exit', code: 2, stdout: '', stderr: message + HELP_HINT };
}

// Startup errors outside argument parsing print like a Rust `main` returning an error, and exit 1.
function fatal(message: string): CliOutcome {
  return { kind: 'exit', code: 1, stdout: '', stderr: `Error: ${message}\n` };
}


/** Options that were given (a switch set to `false` does not count), with their source. */
type Present = ReadonlyMap<OptionSpec, Source>;

/** How to refer to a given option in a message: the flag, the variable or the file key it was set by. */
function origin(spec: OptionSpec, source: Source): string {
  switch (source.kind) {
    case 'cli':
      return `'${displayFlag(spec)}'`;
    case 'env':
      return `'${source.name}' (environment variable of '--${spec.long}')`;
    case 'file':
      return `\`${spec.tomlKey}\` (in the ${JSON.stringify(source.path)} configuration file)`;
  }
}

const CONFLICTS: ReadonlyArray<readonly [keyof Options, keyof Options]> = [['importDump', 'importSnapshot']];

const REQUIRES: ReadonlyArray<readonly [keyof Options, keyof Options]> = [
  ['ignoreMissingSnapshot', 'importSnapshot'],
  ['ignoreSnapshotIfDbExists', 'importSnapshot'],
  ['ignoreMissingDump', 'importDump'],
  ['ignoreDumpIfDbExists', 'importDump'],
  ['s3AccessKey', 's3SecretKey'],
  ['s3SecretKey', 's3AccessKey'],
  ['experimentalS3RoleArn', 'experimentalS3WebIdentityTokenFile'],
  ['experimentalS3WebIdentityTokenFile', 'experimentalS3RoleArn'],
];

const S3_LOCATION: ReadonlyArray<keyof Options> = ['s3BucketUrl', 's3BucketRegion', 's3BucketName', 's3SnapshotPrefix'];
const S3_AUTH: ReadonlyArray<keyof Options> = ['s3AccessKey', 'experimentalS3RoleArn'];
const S3_TRIGGERS: ReadonlyArray<keyof Options> = [
  ...S3_LOCATION,
  's3AccessKey',
  's3SecretKey',
  'experimentalS3RoleArn',
  'experimentalS3WebIdentityTokenFile',
];

/** The first violated relationship as a clap-style message (without the trailing `--help` hint), or null. */
function checkRelationships(present: Present): string | null {
  const find = (key: keyof Options): [OptionSpec, Source] | undefined => {
    const spec = specOf(key);
    const source = present.get(spec);
    return source === undefined ? undefined : [spec, source];
  };

  for (const [a, b] of CONFLICTS) {
    const first = find(a);
    const second = find(b);
    if (first !== undefined && second !== undefined) {
      return `error: the argument ${origin(...first)} cannot be used with ${origin(...second)}`;
    }
  }

  for (const [requirer, required] of REQUIRES) {
    const given = find(requirer);
    if (given !== undefined && find(required) === undefined) {
      return missing([displayFlag(specOf(required))], origin(...given));
    }
  }

  // S3 snapshots need a complete destination and a way to authenticate, all or nothing.
  const trigger = S3_TRIGGERS.map(find).find((entry) => entry !== undefined);
  if (trigger !== undefined) {
    const absent = S3_LOCATION.filter((key) => find(key) === undefined).map((key) => displayFlag(specOf(key)));
    if (absent.length > 0) return missing(absent, origin(...trigger));
    if (S3_AUTH.every((key) => find(key) === undefined)) {
      const methods = S3_AUTH.map((key) => displayFlag(specOf(key))).join(' or ');
      return missing([methods], origin(...trigger));
    }
  }
  return null;
}

function missing(flags: readonly string[], requiredBy: string): string {
  const list = flags.map((flag) => `  ${flag}`).join('\n');
  return `error: the following required arguments were not provided:\n${list}\n\n  note: required by ${requiredBy}`;
}
