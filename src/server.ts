// Starts a Muninn server from parsed options: opens the instance, builds the HTTP app, listens.
import os from 'node:os';
import type { FastifyInstance } from 'fastify';
import { SearchPool } from './api/search/pool.ts';
import { splitHttpAddr, type Options } from './cli/index.ts';
import { buildApp } from './http/app.ts';
import { collectGarbage, whenQuiet } from './idle-release.ts';
import { releaseFreedNativeMemory } from './engine/threads/native-memory.ts';
import { loadTls, type HttpsSetup } from './http/tls.ts';
import { Instance, type InstanceOptions } from './instance/index.ts';
import { silentLogs, type LogHub } from './logger.ts';

export interface RunningServer {
  instance: Instance;
  app: FastifyInstance;
  /** the threads searches run on besides the HTTP thread */
  searchPool: SearchPool;
  /** the base URL clients use (`https://…` with TLS) */
  url: string;
  close(): Promise<void>;
}

/** The instance settings that the launch options decide. */
export function instanceOptions(options: Options, log?: InstanceOptions['log']): InstanceOptions {
  return {
    dbPath: options.dbPath,
    masterKey: options.masterKey,
    maxBatchedTasks: options.experimentalMaxNumberOfBatchedTasks,
    maxBatchedBytes: options.experimentalLimitBatchedTasksTotalSize,
    maxIndexingMemory: options.maxIndexingMemory,
    payloadSizeLimit: options.httpPayloadSizeLimit,
    upgradeDb: options.upgradeDb,
    dumpDir: options.dumpDir,
    snapshotDir: options.snapshotDir,
    scheduleSnapshot: options.scheduleSnapshot,
    ...(options.experimentalAllowedIpNetworks !== null ? { allowedNetworks: options.experimentalAllowedIpNetworks } : {}),
    ...(options.importSnapshot !== null
      ? { importSnapshot: { path: options.importSnapshot, ignoreMissing: options.ignoreMissingSnapshot, ignoreIfDbExists: options.ignoreSnapshotIfDbExists } }
      : {}),
    ...(options.importDump !== null
      ? { importDump: { path: options.importDump, ignoreMissing: options.ignoreMissingDump, ignoreIfDbExists: options.ignoreDumpIfDbExists } }
      : {}),
    taskWebhook: options.taskWebhookUrl === null ? null : { url: options.taskWebhookUrl, authorization: options.taskWebhookAuthorizationHeader },
    forcedFeatures: {
      metrics: options.experimentalEnableMetrics,
      logsRoute: options.experimentalEnableLogsRoute,
      containsFilter: options.experimentalContainsFilter,
    },
    defaultFeatures: { legacySearch: options.experimentalLegacySearchDefault },
    ...(log ? { log } : {}),
  };
}

/** HTTPS settings from the TLS options (null without a certificate and key); throws a StartupError on a bad file. */
export function httpsOf(options: Options): HttpsSetup | null {
  if (options.sslCertPath === null || options.sslKeyPath === null) return null;
  return loadTls({
    certPath: options.sslCertPath,
    keyPath: options.sslKeyPath,
    authPath: options.sslAuthPath,
    ocspPath: options.sslOcspPath,
    requireAuth: options.sslRequireAuth,
    // --ssl-resumption and --ssl-tickets: sessions always resume, as in Meilisearch (tls.ts)
  });
}

/**
 * Search threads beside the HTTP thread: none below 4 cores, else one per core but two (the HTTP
 * thread and indexing keep theirs). On 2 cores, with the client on the same machine, a thread cost
 * 0.26 ms per search at one client and a quarter of the throughput at four (decision 0008).
 * `MUNINN_SEARCH_THREADS` sets another number (0: every search on the HTTP thread).
 */
export function searchThreads(env: NodeJS.ProcessEnv, cores = os.availableParallelism()): number {
  const set = env.MUNINN_SEARCH_THREADS;
  if (set !== undefined && /^\d+$/.test(set.trim())) return Number(set.trim());
  return cores < 4 ? 0 : cores - 2;
}

/** ms without a request or a batch after which the server releases memory */
const QUIET_MS = 5_000;

/** Opens the data directory and serves the HTTP API (HTTPS with the TLS options) on `options.httpAddr`. */
export async function startServer(options: Options, logs: LogHub = silentLogs()): Promise<RunningServer> {
  const log = logs.log;
  // TLS files are checked before the database is opened: a typo in a path should not touch the data.
  const https = httpsOf(options);
  const instance = await Instance.open(instanceOptions(options, (level, message) => log({ level, target: 'muninn::instance', message })));
  const searchPool = new SearchPool({
    size: searchThreads(process.env),
    indexesDir: instance.dataDir.indexes,
    log: (message) => log({ level: 'error', target: 'muninn::search', message }),
  });
  try {
    const app = await buildApp({
      searchPool,
      instance,
      payloadSizeLimit: options.httpPayloadSizeLimit,
      ...(https ? { https } : {}),
      log,
      logs,
      dashboard: options.env === 'development',
      embeddingCacheEntries: options.experimentalEmbeddingCacheEntries,
      searchQueue: {
        capacity: options.experimentalSearchQueueSize,
        permits: os.availableParallelism() * options.experimentalNbSearchesPerCore,
        dropAfterMs: options.experimentalDropSearchAfter * 1000,
      },
    });
    // a quiet server lets go of its read handles (their caches and mapped pages; the next read
    // reopens them in a few ms) and of its garbage (idle-release.ts)
    const quiet = whenQuiet(
      QUIET_MS,
      async () => {
        await Promise.all([instance.indexes.closeAll(), searchPool.stop()]);
        collectGarbage();
        releaseFreedNativeMemory();
      },
      (err) => log({ level: 'error', target: 'muninn::server', message: `releasing memory: ${String(err)}` }),
    );
    app.server.on('request', (_req, res) => res.once('finish', quiet.activity));
    instance.scheduler.on('finished', quiet.activity);
    // the search threads let go of indexes the batch deleted or swapped away, as this thread does
    instance.scheduler.on('finished', () => searchPool.keepOnly(instance.queue.indexUids().map((uid) => instance.queue.indexUuid(uid)!)));
    instance.scheduler.on('retired', quiet.activity);
    const { host, port } = splitHttpAddr(options.httpAddr);
    await app.listen({ host, port });
    quiet.activity(); // starting up is activity too (module loading leaves garbage)
    const address = app.server.address();
    const boundPort = typeof address === 'object' && address ? address.port : port;
    const url = `${https ? 'https' : 'http'}://${host.includes(':') ? `[${host}]` : host}:${boundPort}`;
    log({ level: 'info', target: 'muninn::server', message: `starting service: listening on: ${url}` });
    return {
      instance,
      app,
      searchPool,
      url,
      close: async () => {
        quiet.stop();
        await app.close();
        await searchPool.stop();
        await instance.close();
      },
    };
  } catch (err) {
    await searchPool.stop();
    await instance.close();
    throw err;
  }
}
