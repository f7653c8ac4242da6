// Starts a Muninn server from parsed options: opens the instance, builds the HTTP app, listens.
import type { FastifyInstance } from 'fastify';
import { splitHttpAddr, type Options } from './cli/index.ts';
import { buildApp } from './http/app.ts';
import { Instance, type InstanceOptions } from './instance/index.ts';

export interface RunningServer {
  instance: Instance;
  app: FastifyInstance;
  /** the base URL clients use */
  url: string;
  close(): Promise<void>;
}

const LOG_LEVELS: Record<string, string> = { OFF: 'off', ERROR: 'error', WARN: 'warn', INFO: 'info', DEBUG: 'debug', TRACE: 'trace' };

/** The instance settings that the launch options decide. */
export function instanceOptions(options: Options, log?: InstanceOptions['log']): InstanceOptions {
  return {
    dbPath: options.dbPath,
    masterKey: options.masterKey,
    maxBatchedTasks: options.experimentalMaxNumberOfBatchedTasks,
    maxBatchedBytes: options.experimentalLimitBatchedTasksTotalSize,
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

/** Opens the data directory and serves the HTTP API on `options.httpAddr`. */
export async function startServer(options: Options, log: (level: 'error' | 'warn' | 'info', message: string) => void): Promise<RunningServer> {
  const instance = await Instance.open(instanceOptions(options, log));
  try {
    const logLevel = LOG_LEVELS[String(options.logLevel).toUpperCase()] ?? 'info';
    const app = await buildApp({ instance, payloadSizeLimit: options.httpPayloadSizeLimit, logLevel: logLevel === 'info' ? 'warn' : logLevel });
    const { host, port } = splitHttpAddr(options.httpAddr);
    await app.listen({ host, port });
    const address = app.server.address();
    const boundPort = typeof address === 'object' && address ? address.port : port;
    const url = `http://${host.includes(':') ? `[${host}]` : host}:${boundPort}`;
    return {
      instance,
      app,
      url,
      close: async () => {
        await app.close();
        await instance.close();
      },
    };
  } catch (err) {
    await instance.close();
    throw err;
  }
}
