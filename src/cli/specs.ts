// The option table of cli.md §2: one row per flag, from which argv parsing, env lookup, config-file keys,
// validation and the help text are all derived, so a flag cannot exist in one place and be missing in another.
import type { Machine, Options } from './options.ts';
import {
  allowedIpNetworksValue,
  batchedTasksValue,
  booleanValue,
  byteSizeValue,
  environmentValue,
  httpAddrValue,
  indexingThreadsValue,
  logLevelValue,
  logsModeValue,
  multipartPartSizeValue,
  positiveValue,
  scheduleSnapshotValue,
  stringValue,
  urlValue,
  unsignedValue,
} from './values.ts';

export type Group =
  | 'Core'
  | 'Indexing resources'
  | 'Snapshots and dumps'
  | 'TLS'
  | 'Experimental features'
  | 'S3 snapshots (not supported yet: Muninn refuses to start with any of them)';

/** TOML value types a config-file key accepts before its text goes through the shared parser. */
export type TomlShape = 'string' | 'boolean' | 'integer' | 'bytes' | 'threads' | 'schedule' | 'list';

export interface OptionSpec {
  key: keyof Options;
  /** Flag name without the leading dashes. */
  long: string;
  /** Placeholder shown in help and errors; null for switches (present = true). */
  valueName: string | null;
  /** `--schedule-snapshot [<SECONDS>]`: the value may be omitted. */
  optionalValue: boolean;
  env: string;
  tomlKey: string;
  tomlShape: TomlShape;
  /** Parses `raw` and stores it into `options`; throws InvalidValue. */
  assign: (options: Options, raw: string, machine: Machine) => void;
  defaultHelp: string | null;
  help: string;
  group: Group;
  /** Accepted in config.toml but without effect there (Meilisearch never exports these keys). */
  ignoredInFile: boolean;
  /** Other names of the same option (flag, variable and file key), e.g. the seed's `--experimental-dumpless-upgrade`. */
  aliases: readonly OptionAlias[];
}

export interface OptionAlias {
  long: string;
  env: string;
  tomlKey: string;
}

interface Meta {
  value?: string;
  optionalValue?: boolean;
  env?: string;
  shape?: TomlShape;
  default?: string;
  help: string;
  ignoredInFile?: boolean;
  /** Another flag name for the same option; its variable and file key are derived like the main ones. */
  alias?: string;
}

type Row = Omit<OptionSpec, 'group'>;

function row(key: keyof Options, long: string, meta: Meta, assign: OptionSpec['assign']): Row {
  return {
    key,
    long,
    valueName: meta.value ?? null,
    optionalValue: meta.optionalValue ?? false,
    env: meta.env ?? envName(long),
    tomlKey: long.replaceAll('-', '_'),
    tomlShape: meta.shape ?? (meta.value === undefined ? 'boolean' : 'string'),
    assign,
    defaultHelp: meta.default ?? null,
    help: meta.help,
    ignoredInFile: meta.ignoredInFile ?? false,
    aliases: meta.alias === undefined ? [] : [{ long: meta.alias, env: envName(meta.alias), tomlKey: meta.alias.replaceAll('-', '_') }],
  };
}

function envName(long: string): string {
  return `MEILI_${long.toUpperCase().replaceAll('-', '_')}`;
}

/** A row whose text parses straight into `options[key]`. */
function opt<K extends keyof Options>(key: K, long: string, parse: (raw: string) => Options[K], meta: Meta): Row {
  return row(key, long, meta, (options, raw) => {
    options[key] = parse(raw);
  });
}

type SwitchKey = { [K in keyof Options]: Options[K] extends boolean ? K : never }[keyof Options];

/** A switch: a bare flag on the command line, `true`/`false` elsewhere. */
function flag(key: SwitchKey, long: string, meta: Meta): Row {
  return row(key, long, meta, (options, raw) => {
    options[key] = booleanValue(raw);
  });
}

function table(): OptionSpec[] {
  const core = [
    opt('dbPath', 'db-path', stringValue, { value: 'PATH', default: './data.ms', help: 'Directory where the database files are stored.' }),
    opt('httpAddr', 'http-addr', httpAddrValue, { value: 'ADDR', default: 'localhost:7700', help: 'Address (host:port) the HTTP server binds to.' }),
    opt('masterKey', 'master-key', stringValue, { value: 'KEY', help: 'Master key protecting the instance; at least 16 bytes are required in production.' }),
    opt('env', 'env', environmentValue, { value: 'ENV', default: 'development', help: 'Environment: `development` or `production` (master key mandatory, dashboard disabled).' }),
    flag('noAnalytics', 'no-analytics', { default: 'false', help: 'Disables telemetry. Muninn never sends telemetry or anything else, with or without this switch.' }),
    opt('httpPayloadSizeLimit', 'http-payload-size-limit', byteSizeValue, { value: 'SIZE', shape: 'bytes', default: '100 MB', help: 'Maximum accepted request body size.' }),
    opt('logLevel', 'log-level', logLevelValue, { value: 'LEVEL', default: 'INFO', help: 'Log verbosity: OFF, ERROR, WARN, INFO, DEBUG or TRACE.' }),
    opt('taskWebhookUrl', 'task-webhook-url', urlValue, { value: 'URL', help: 'URL sent the finished tasks (gzip NDJSON) after each batch.' }),
    opt('taskWebhookAuthorizationHeader', 'task-webhook-authorization-header', stringValue, { value: 'VALUE', help: 'Authorization header sent to the task webhook.' }),
    opt('configFilePath', 'config-file-path', stringValue, { value: 'PATH', default: './config.toml', help: 'TOML configuration file (keys are the option names in snake_case).' }),
  ];

  const indexing = [
    opt('maxIndexingMemory', 'max-indexing-memory', byteSizeValue, { value: 'SIZE', shape: 'bytes', default: '2/3 of the total memory', help: 'Soft limit on the memory used by indexing: bounds each write step of a document batch and the pending search and facet changes, and sets the default of --experimental-limit-batched-tasks-total-size.' }),
    row('maxIndexingThreads', 'max-indexing-threads', { value: 'N', shape: 'threads', default: 'half of the CPUs', help: 'Threads used for indexing; `unlimited` or empty means the default, 0 every CPU. Validated, no effect: Muninn always indexes with one writer and one extractor thread.' }, (options, raw, machine) => {
      const threads = indexingThreadsValue(raw);
      if (threads === null) return;
      options.maxIndexingThreads = threads === 0 ? machine.cpuCount : threads;
      options.maxIndexingThreadsExplicit = true;
    }),
    flag('experimentalNoEdition2024ForSettings', 'experimental-no-edition-2024-for-settings', { default: 'false', help: 'Experimental: use the previous settings-indexing pipeline. No effect: Muninn has one pipeline.' }),
    flag('experimentalReduceIndexingMemoryUsage', 'experimental-reduce-indexing-memory-usage', { default: 'false', help: 'Experimental: trade indexing speed for memory. No effect: a Meilisearch tuning without a counterpart in Muninn.' }),
    opt('experimentalMaxNumberOfBatchedTasks', 'experimental-max-number-of-batched-tasks', batchedTasksValue, { value: 'N', shape: 'integer', default: 'unlimited', help: 'Maximum number of tasks per batch; 0 never processes tasks.' }),
    opt('experimentalLimitBatchedTasksTotalSize', 'experimental-limit-batched-tasks-total-size', byteSizeValue, { value: 'SIZE', shape: 'bytes', default: 'half of the max indexing memory, at most 10 GiB', help: 'Maximum total payload size of a batch (a batch always holds at least one task).' }),
    opt('experimentalEmbeddingCacheEntries', 'experimental-embedding-cache-entries', unsignedValue, { value: 'N', shape: 'integer', default: '0 (disabled)', help: 'Entries of the cache of query embeddings (search texts embedded by an embedder\'s server).' }),
  ];

  const snapshots = [
    opt('snapshotDir', 'snapshot-dir', stringValue, { value: 'DIR', default: 'snapshots/', help: 'Directory where snapshots are written.' }),
    opt('scheduleSnapshot', 'schedule-snapshot', scheduleSnapshotValue, { value: 'SECONDS', optionalValue: true, shape: 'schedule', default: 'disabled (86400 when given without a value)', help: 'Takes a snapshot every SECONDS (a day when given without a value).' }),
    opt('importSnapshot', 'import-snapshot', stringValue, { value: 'PATH', ignoredInFile: true, help: 'Snapshot to import at launch into an empty database; conflicts with --import-dump.' }),
    flag('ignoreMissingSnapshot', 'ignore-missing-snapshot', { ignoredInFile: true, default: 'false', help: 'Start anyway when the snapshot to import is missing; requires --import-snapshot.' }),
    flag('ignoreSnapshotIfDbExists', 'ignore-snapshot-if-db-exists', { ignoredInFile: true, default: 'false', help: 'Skip the snapshot import when a database exists; requires --import-snapshot.' }),
    opt('dumpDir', 'dump-dir', stringValue, { value: 'DIR', default: 'dumps/', help: 'Directory where dumps are written.' }),
    opt('importDump', 'import-dump', stringValue, { value: 'PATH', ignoredInFile: true, help: 'Dump to import at launch into an empty database; conflicts with --import-snapshot.' }),
    flag('ignoreMissingDump', 'ignore-missing-dump', { ignoredInFile: true, default: 'false', help: 'Start anyway when the dump to import is missing; requires --import-dump.' }),
    flag('ignoreDumpIfDbExists', 'ignore-dump-if-db-exists', { ignoredInFile: true, default: 'false', help: 'Skip the dump import when a database exists; requires --import-dump.' }),
    flag('upgradeDb', 'upgrade-db', { alias: 'experimental-dumpless-upgrade', default: 'false', help: 'Upgrade a database created by an older version at launch (dumpless upgrade).' }),
  ];

  const tls = [
    opt('sslCertPath', 'ssl-cert-path', stringValue, { value: 'PATH', help: 'PEM certificate chain; HTTPS is served when both it and the key are given (one without the other is refused).' }),
    opt('sslKeyPath', 'ssl-key-path', stringValue, { value: 'PATH', help: 'PEM private key.' }),
    opt('sslAuthPath', 'ssl-auth-path', stringValue, { value: 'PATH', help: 'CA certificates used to verify client certificates (optional for clients unless --ssl-require-auth).' }),
    opt('sslOcspPath', 'ssl-ocsp-path', stringValue, { value: 'PATH', help: 'DER OCSP response to staple.' }),
    flag('sslRequireAuth', 'ssl-require-auth', { default: 'false', help: 'Make client certificates mandatory; needs --ssl-auth-path.' }),
    flag('sslResumption', 'ssl-resumption', { default: 'false', help: 'Enable TLS session resumption. No effect: sessions always resume, as they do in Meilisearch without it.' }),
    flag('sslTickets', 'ssl-tickets', { default: 'false', help: 'Enable TLS session tickets. No effect: sessions always resume, as they do in Meilisearch without it.' }),
  ];

  const experimental = [
    flag('experimentalEnableMetrics', 'experimental-enable-metrics', { default: 'false', help: 'Enable the GET /metrics route (the `metrics` experimental feature, always on).' }),
    flag('experimentalEnableLogsRoute', 'experimental-enable-logs-route', { default: 'false', help: 'Enable the /logs/stream and /logs/stderr routes.' }),
    flag('experimentalContainsFilter', 'experimental-contains-filter', { default: 'false', help: 'Enable the CONTAINS and STARTS WITH filter operators.' }),
    flag('experimentalLegacySearchDefault', 'experimental-legacy-search-default', { env: 'MEILI_EXPERIMENTAL_LEGACY_SEARCH', default: 'false', help: 'Default value of the legacySearch runtime feature.' }),
    opt('experimentalLogsMode', 'experimental-logs-mode', logsModeValue, { value: 'MODE', default: 'human', help: 'Log format: `human` or `json`.' }),
    opt('experimentalSearchQueueSize', 'experimental-search-queue-size', unsignedValue, { value: 'N', shape: 'integer', default: '1000', help: 'Searches that may wait for their turn; past it a random waiting one is answered 503 too_many_search_requests (0: none wait).' }),
    opt('experimentalDropSearchAfter', 'experimental-drop-search-after', positiveValue, { value: 'SECONDS', shape: 'integer', default: '60', help: 'Seconds a search may wait for its turn before it is answered 503 instead of run.' }),
    opt('experimentalNbSearchesPerCore', 'experimental-nb-searches-per-core', positiveValue, { value: 'N', shape: 'integer', default: '4', help: 'Searches in progress at once, per core (from arrival to answer); the others wait in the search queue.' }),
    opt('experimentalPersonalizationApiKey', 'experimental-personalization-api-key', stringValue, { value: 'KEY', help: 'Enables search personalization. Not supported: Muninn refuses to start with it.' }),
    opt('experimentalAllowedIpNetworks', 'experimental-allowed-ip-networks', allowedIpNetworksValue, { value: 'CIDR,...', shape: 'list', help: 'Private networks outgoing requests (export) may reach, or `any` to disable the protection.' }),
  ];

  const s3 = [
    opt('s3BucketUrl', 's3-bucket-url', stringValue, { value: 'URL', help: 'S3 endpoint.' }),
    opt('s3BucketRegion', 's3-bucket-region', stringValue, { value: 'REGION', help: 'S3 region.' }),
    opt('s3BucketName', 's3-bucket-name', stringValue, { value: 'NAME', help: 'S3 bucket.' }),
    opt('s3SnapshotPrefix', 's3-snapshot-prefix', stringValue, { value: 'PREFIX', help: 'Key prefix of the snapshots.' }),
    opt('s3AccessKey', 's3-access-key', stringValue, { value: 'KEY', help: 'Access key; requires --s3-secret-key.' }),
    opt('s3SecretKey', 's3-secret-key', stringValue, { value: 'KEY', help: 'Secret key.' }),
    opt('experimentalS3RoleArn', 'experimental-s3-role-arn', stringValue, { value: 'ARN', help: 'Role to assume; requires --experimental-s3-web-identity-token-file.' }),
    opt('experimentalS3WebIdentityTokenFile', 'experimental-s3-web-identity-token-file', stringValue, { value: 'PATH', help: 'Web identity token file.' }),
    opt('experimentalS3MaxInFlightParts', 'experimental-s3-max-in-flight-parts', positiveValue, { value: 'N', shape: 'integer', default: '10', help: 'Parts uploaded concurrently.' }),
    opt('experimentalS3CompressionLevel', 'experimental-s3-compression-level', unsignedValue, { value: 'N', shape: 'integer', default: '0', help: 'Compression level of the uploaded snapshot.' }),
    opt('experimentalS3SignatureDurationSeconds', 'experimental-s3-signature-duration-seconds', positiveValue, { value: 'SECONDS', shape: 'integer', default: '28800', help: 'Validity of the request signatures.' }),
    opt('experimentalS3MultipartPartSize', 'experimental-s3-multipart-part-size', multipartPartSizeValue, { value: 'SIZE', shape: 'bytes', default: '375 MiB', help: 'Size of a multipart upload part (10 MiB to 8 GiB).' }),
  ];

  const inGroup = (group: Group, rows: Row[]): OptionSpec[] => rows.map((r) => ({ ...r, group }));
  return [
    ...inGroup('Core', core),
    ...inGroup('Indexing resources', indexing),
    ...inGroup('Snapshots and dumps', snapshots),
    ...inGroup('TLS', tls),
    ...inGroup('Experimental features', experimental),
    ...inGroup('S3 snapshots (not supported yet: Muninn refuses to start with any of them)', s3),
  ];
}

/** Every option, in help order. */
export const OPTION_SPECS: readonly OptionSpec[] = table();

/** Looks an option up by its key. */
export function specOf(key: keyof Options): OptionSpec {
  const spec = OPTION_SPECS.find((candidate) => candidate.key === key);
  if (spec === undefined) throw new Error(`no option spec for ${key}`);
  return spec;
}

/** `--name <VALUE>` as shown in errors and help. */
export function displayFlag(spec: OptionSpec): string {
  if (spec.valueName === null) return `--${spec.long}`;
  return spec.optionalValue ? `--${spec.long} [<${spec.valueName}>]` : `--${spec.long} <${spec.valueName}>`;
}
