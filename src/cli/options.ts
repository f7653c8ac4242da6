// The resolved launch options and their built-in defaults (cli.md §2).
// Field names are the camelCase form of the Meilisearch flags so the two tables can be read side by side.
import os from 'node:os';

export type LogLevel = 'OFF' | 'ERROR' | 'WARN' | 'INFO' | 'DEBUG' | 'TRACE';
export type Environment = 'development' | 'production';
export type LogsMode = 'human' | 'json';

/** One CIDR of `--experimental-allowed-ip-networks`, ready for `net.BlockList.addSubnet`. */
export interface IpNetwork {
  cidr: string;
  address: string;
  prefix: number;
  family: 'ipv4' | 'ipv6';
}

/** `'any'` disables the outgoing-request protection; a list allows those networks on top of global IPs. */
export type AllowedIpNetworks = 'any' | IpNetwork[];

export interface Options {
  // Core
  dbPath: string;
  /** Kept as given (`host:port`); see `splitHttpAddr`. */
  httpAddr: string;
  masterKey: string | null;
  env: Environment;
  noAnalytics: boolean;
  /** Bytes. */
  httpPayloadSizeLimit: number;
  logLevel: LogLevel;
  taskWebhookUrl: string | null;
  taskWebhookAuthorizationHeader: string | null;
  /** The configuration file that was actually read, if any (for the launch summary). */
  configFilePath: string | null;

  // Indexing resources
  /** Bytes. */
  maxIndexingMemory: number;
  maxIndexingThreads: number;
  /** False when the thread count is the default: dump imports then use every CPU. */
  maxIndexingThreadsExplicit: boolean;
  experimentalNoEdition2024ForSettings: boolean;
  experimentalReduceIndexingMemoryUsage: boolean;
  /** `Number.POSITIVE_INFINITY` when unlimited; 0 means the scheduler never processes tasks. */
  experimentalMaxNumberOfBatchedTasks: number;
  /** Bytes. */
  experimentalLimitBatchedTasksTotalSize: number;
  experimentalEmbeddingCacheEntries: number;

  // Snapshots and dumps
  snapshotDir: string;
  /** Seconds between scheduled snapshots; null when disabled. */
  scheduleSnapshot: number | null;
  importSnapshot: string | null;
  ignoreMissingSnapshot: boolean;
  ignoreSnapshotIfDbExists: boolean;
  dumpDir: string;
  importDump: string | null;
  ignoreMissingDump: boolean;
  ignoreDumpIfDbExists: boolean;
  upgradeDb: boolean;

  // TLS (enabled only when both the certificate and the key are given)
  sslCertPath: string | null;
  sslKeyPath: string | null;
  sslAuthPath: string | null;
  sslOcspPath: string | null;
  sslRequireAuth: boolean;
  sslResumption: boolean;
  sslTickets: boolean;

  // Experimental features forced on at launch
  experimentalEnableMetrics: boolean;
  experimentalEnableLogsRoute: boolean;
  experimentalContainsFilter: boolean;
  experimentalLegacySearchDefault: boolean;
  experimentalLogsMode: LogsMode;
  experimentalSearchQueueSize: number;
  /** Seconds; never 0. */
  experimentalDropSearchAfter: number;
  /** Never 0. */
  experimentalNbSearchesPerCore: number;
  experimentalPersonalizationApiKey: string | null;
  /** null = default policy (non-global IPs blocked for outgoing requests). */
  experimentalAllowedIpNetworks: AllowedIpNetworks | null;

  // S3 snapshots (Enterprise Edition in Meilisearch): validated and stored, not used by Muninn
  s3BucketUrl: string | null;
  s3BucketRegion: string | null;
  s3BucketName: string | null;
  s3SnapshotPrefix: string | null;
  s3AccessKey: string | null;
  s3SecretKey: string | null;
  experimentalS3RoleArn: string | null;
  experimentalS3WebIdentityTokenFile: string | null;
  experimentalS3MaxInFlightParts: number;
  experimentalS3CompressionLevel: number;
  experimentalS3SignatureDurationSeconds: number;
  /** Bytes. */
  experimentalS3MultipartPartSize: number;
}

/** Machine facts the memory and thread defaults depend on. */
export interface Machine {
  totalMemory: number;
  cpuCount: number;
}

const GIB = 1024 ** 3;
export const MIB = 1024 ** 2;
export const DEFAULT_PAYLOAD_SIZE_LIMIT = 100_000_000;
export const DEFAULT_SNAPSHOT_INTERVAL = 86_400;

/** The memory and CPU count of this process, honouring a cgroup memory limit when Node exposes one. */
export function detectMachine(): Machine {
  const total = os.totalmem();
  // constrainedMemory() reports the cgroup limit (or 0 / a huge value when there is none).
  const constrained = typeof process.constrainedMemory === 'function' ? process.constrainedMemory() : 0;
  const totalMemory = constrained !== undefined && constrained > 0 && constrained < total ? constrained : total;
  return { totalMemory, cpuCount: os.availableParallelism() };
}

/** Default indexing threads: half of the CPUs, at least one. */
export function defaultIndexingThreads(cpuCount: number): number {
  return Math.max(1, Math.floor(cpuCount / 2));
}

/** Default batch payload cap: half of the indexing memory, at most 10 GiB (applies to the default only). */
export function defaultBatchedTasksTotalSize(maxIndexingMemory: number): number {
  return Math.min(Math.floor(maxIndexingMemory / 2), 10 * GIB);
}

/** Every option at its built-in default; derived values are computed from `machine`. */
export function defaultOptions(machine: Machine): Options {
  const maxIndexingMemory = Math.floor((machine.totalMemory * 2) / 3);
  return {
    dbPath: './data.ms',
    httpAddr: 'localhost:7700',
    masterKey: null,
    env: 'development',
    noAnalytics: false,
    httpPayloadSizeLimit: DEFAULT_PAYLOAD_SIZE_LIMIT,
    logLevel: 'INFO',
    taskWebhookUrl: null,
    taskWebhookAuthorizationHeader: null,
    configFilePath: null,

    maxIndexingMemory,
    maxIndexingThreads: defaultIndexingThreads(machine.cpuCount),
    maxIndexingThreadsExplicit: false,
    experimentalNoEdition2024ForSettings: false,
    experimentalReduceIndexingMemoryUsage: false,
    experimentalMaxNumberOfBatchedTasks: Number.POSITIVE_INFINITY,
    experimentalLimitBatchedTasksTotalSize: defaultBatchedTasksTotalSize(maxIndexingMemory),
    experimentalEmbeddingCacheEntries: 0,

    snapshotDir: 'snapshots/',
    scheduleSnapshot: null,
    importSnapshot: null,
    ignoreMissingSnapshot: false,
    ignoreSnapshotIfDbExists: false,
    dumpDir: 'dumps/',
    importDump: null,
    ignoreMissingDump: false,
    ignoreDumpIfDbExists: false,
    upgradeDb: false,

    sslCertPath: null,
    sslKeyPath: null,
    sslAuthPath: null,
    sslOcspPath: null,
    sslRequireAuth: false,
    sslResumption: false,
    sslTickets: false,

    experimentalEnableMetrics: false,
    experimentalEnableLogsRoute: false,
    experimentalContainsFilter: false,
    experimentalLegacySearchDefault: false,
    experimentalLogsMode: 'human',
    experimentalSearchQueueSize: 1000,
    experimentalDropSearchAfter: 60,
    experimentalNbSearchesPerCore: 4,
    experimentalPersonalizationApiKey: null,
    experimentalAllowedIpNetworks: null,

    s3BucketUrl: null,
    s3BucketRegion: null,
    s3BucketName: null,
    s3SnapshotPrefix: null,
    s3AccessKey: null,
    s3SecretKey: null,
    experimentalS3RoleArn: null,
    experimentalS3WebIdentityTokenFile: null,
    experimentalS3MaxInFlightParts: 10,
    experimentalS3CompressionLevel: 0,
    experimentalS3SignatureDurationSeconds: 28_800,
    experimentalS3MultipartPartSize: 375 * MIB,
  };
}
