// Starts a Muninn server from parsed options: opens the instance, builds the HTTP app, listens.
import type { FastifyInstance } from 'fastify';
import { splitHttpAddr, type Options } from './cli/index.ts';
import { buildApp } from './http/app.ts';
import { collectGarbage, whenQuiet } from './idle-release.ts';
import { loadTls, type HttpsSetup } from './http/tls.ts';
import { Instance, type InstanceOptions } from './instance/index.ts';
import type { Log } from './logger.ts';

export interface RunningServer {
  instance: Instance;
  app: FastifyInstance;
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

const REQUEST_LEVELS = new Set(['INFO', 'DEBUG', 'TRACE']);
/** ms without a request or a batch after which the server releases memory */
const QUIET_MS = 5_000;

/** Opens the data directory and serves the HTTP API (HTTPS with the TLS options) on `options.httpAddr`. */
export async function startServer(options: Options, log: Log): Promise<RunningServer> {
  // TLS files are checked before the database is opened: a typo in a path should not touch the data.
  const https = httpsOf(options);
  const instance = await Instance.open(instanceOptions(options, (level, message) => log({ level, target: 'muninn::instance', message })));
  try {
    const app = await buildApp({
      instance,
      payloadSizeLimit: options.httpPayloadSizeLimit,
      ...(https ? { https } : {}),
      log,
      logRequests: REQUEST_LEVELS.has(options.logLevel),
    });
    // a quiet server lets go of its read handles (their caches and mapped pages; the next read
    // reopens them in a few ms) and of its garbage (idle-release.ts)
    const quiet = whenQuiet(
      QUIET_MS,
      async () => {
        await instance.indexes.closeAll();
        collectGarbage();
      },
      (err) => log({ level: 'error', target: 'muninn::server', message: `releasing memory: ${String(err)}` }),
    );
    app.server.on('request', (_req, res) => res.once('finish', quiet.activity));
    instance.scheduler.on('finished', quiet.activity);
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
      url,
      close: async () => {
        quiet.stop();
        await app.close();
        await instance.close();
      },
    };
  } catch (err) {
    await instance.close();
    throw err;
  }
}
