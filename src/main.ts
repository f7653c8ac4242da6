#!/usr/bin/env node
// Composition root: options → data directory → HTTP server.
import os from 'node:os';
import { checkSupport, parseCli } from './cli/index.ts';
import { StartupError } from './instance/index.ts';
import { LogHub } from './logger.ts';
import { startServer } from './server.ts';

async function main(): Promise<void> {
  const outcome = checkSupport(parseCli({ argv: process.argv.slice(2), env: process.env, cwd: process.cwd(), totalMemory: os.totalmem(), cpuCount: os.cpus().length }));
  if (outcome.kind === 'exit') {
    if (outcome.stdout) process.stdout.write(outcome.stdout);
    if (outcome.stderr) process.stderr.write(outcome.stderr);
    process.exit(outcome.code);
  }
  const { options, warnings } = outcome;
  for (const w of warnings) process.stderr.write(`WARN: ${w}\n`);
  // Like Meilisearch, everything goes to stderr: the launch summary as plain text, then log lines.
  const logs = new LogHub({ level: options.logLevel, mode: options.experimentalLogsMode, write: (line) => process.stderr.write(line) });
  let server;
  try {
    server = await startServer(options, logs);
  } catch (err) {
    if (err instanceof StartupError) {
      process.stderr.write(`Error: ${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }
  process.stderr.write(
    [
      `Config file path:\t"${options.configFilePath ?? 'none'}"`,
      `Database path:\t\t"${options.dbPath}"`,
      `Server listening on:\t"${server.url}"`,
      `Environment:\t\t"${options.env}"`,
      `Package version:\t"1.50.0" (Muninn, Meilisearch API)`,
      // Muninn has no telemetry: nothing is ever sent, with or without --no-analytics.
      `Anonymous telemetry:\t"Disabled"`,
      `Instance UID:\t\t"${server.instance.dataDir.instanceUid ?? 'none'}"`,
      '',
    ].join('\n'),
  );
  let closing = false;
  const shutdown = (code: number) => {
    if (closing) return;
    closing = true;
    server
      .close()
      .catch((err) => process.stderr.write(`ERROR: while closing: ${String(err)}\n`))
      .finally(() => process.exit(code));
  };
  process.on('SIGINT', () => shutdown(130));
  process.on('SIGTERM', () => shutdown(0));
}

main().catch((err) => {
  process.stderr.write(`Error: ${(err as Error)?.stack ?? String(err)}\n`);
  process.exit(1);
});
