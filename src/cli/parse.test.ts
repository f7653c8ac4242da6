import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseCli, type CliOutcome, type Options } from './index.ts';
import { OPTION_SPECS } from './specs.ts';

const GIB = 1024 ** 3;
const KEY = 'a-long-enough-master-key';

// An empty working directory, so that no stray ./config.toml is picked up.
const emptyCwd = fs.mkdtempSync(path.join(os.tmpdir(), 'muninn-cli-parse-'));
after(() => fs.rmSync(emptyCwd, { recursive: true, force: true }));

function run(argv: string[], env: Record<string, string | undefined> = {}, extra: { cwd?: string; totalMemory?: number; cpuCount?: number } = {}): CliOutcome {
  return parseCli({ argv, env, cwd: extra.cwd ?? emptyCwd, totalMemory: extra.totalMemory ?? 12 * GIB, cpuCount: extra.cpuCount ?? 8 });
}

function options(argv: string[], env: Record<string, string | undefined> = {}, extra = {}): Options {
  const outcome = run(argv, env, extra);
  if (outcome.kind !== 'run') assert.fail(`expected run, got exit ${outcome.code}: ${outcome.stderr}`);
  return outcome.options;
}

function exit(argv: string[], env: Record<string, string | undefined> = {}): Extract<CliOutcome, { kind: 'exit' }> {
  const outcome = run(argv, env);
  if (outcome.kind !== 'exit') assert.fail('expected exit, got run');
  return outcome;
}

test('defaults', () => {
  const o = options([], {}, { totalMemory: 12 * GIB, cpuCount: 8 });
  assert.equal(o.dbPath, './data.ms');
  assert.equal(o.httpAddr, 'localhost:7700');
  assert.equal(o.masterKey, null);
  assert.equal(o.env, 'development');
  assert.equal(o.noAnalytics, false);
  assert.equal(o.httpPayloadSizeLimit, 100_000_000);
  assert.equal(o.logLevel, 'INFO');
  assert.equal(o.maxIndexingMemory, 8 * GIB);
  assert.equal(o.maxIndexingThreads, 4);
  assert.equal(o.maxIndexingThreadsExplicit, false);
  assert.equal(o.experimentalMaxNumberOfBatchedTasks, Number.POSITIVE_INFINITY);
  assert.equal(o.experimentalLimitBatchedTasksTotalSize, 4 * GIB);
  assert.equal(o.experimentalEmbeddingCacheEntries, 0);
  assert.equal(o.snapshotDir, 'snapshots/');
  assert.equal(o.dumpDir, 'dumps/');
  assert.equal(o.scheduleSnapshot, null);
  assert.equal(o.experimentalLogsMode, 'human');
  assert.equal(o.experimentalSearchQueueSize, 1000);
  assert.equal(o.experimentalDropSearchAfter, 60);
  assert.equal(o.experimentalNbSearchesPerCore, 4);
  assert.equal(o.experimentalAllowedIpNetworks, null);
  assert.equal(o.configFilePath, null);
});

test('derived defaults: thread count floor and 10 GiB batch cap', () => {
  assert.equal(options([], {}, { cpuCount: 1 }).maxIndexingThreads, 1);
  assert.equal(options([], {}, { cpuCount: 3 }).maxIndexingThreads, 1);
  const big = options([], {}, { totalMemory: 96 * GIB });
  assert.equal(big.maxIndexingMemory, 64 * GIB);
  assert.equal(big.experimentalLimitBatchedTasksTotalSize, 10 * GIB);
  // The batch size default follows an explicit indexing memory.
  assert.equal(options(['--max-indexing-memory', '2 GiB']).experimentalLimitBatchedTasksTotalSize, GIB);
  // ...and the 10 GiB cap only applies to the default.
  assert.equal(options(['--experimental-limit-batched-tasks-total-size', '20 GiB']).experimentalLimitBatchedTasksTotalSize, 20 * GIB);
});

test('every option is settable by flag and by its environment variable', () => {
  for (const spec of OPTION_SPECS) {
    assert.match(spec.env, /^MEILI_[A-Z0-9_]+$/, spec.long);
    assert.equal(spec.tomlKey, spec.long.replaceAll('-', '_'));
  }
  const legacy = OPTION_SPECS.find((spec) => spec.long === 'experimental-legacy-search-default');
  assert.equal(legacy?.env, 'MEILI_EXPERIMENTAL_LEGACY_SEARCH');
  assert.equal(options([], { MEILI_EXPERIMENTAL_LEGACY_SEARCH: 'true' }).experimentalLegacySearchDefault, true);
  assert.equal(options(['--experimental-legacy-search-default']).experimentalLegacySearchDefault, true);
});

test('precedence: flag > environment variable > default', () => {
  const cases: Array<{ argv: string[]; env: Record<string, string>; key: keyof Options; expected: unknown }> = [
    { argv: [], env: {}, key: 'dbPath', expected: './data.ms' },
    { argv: [], env: { MEILI_DB_PATH: '/env' }, key: 'dbPath', expected: '/env' },
    { argv: ['--db-path', '/flag'], env: { MEILI_DB_PATH: '/env' }, key: 'dbPath', expected: '/flag' },
    { argv: ['--db-path=/inline'], env: {}, key: 'dbPath', expected: '/inline' },
    { argv: [], env: { MEILI_HTTP_ADDR: '0.0.0.0:7700' }, key: 'httpAddr', expected: '0.0.0.0:7700' },
    { argv: [], env: { MEILI_NO_ANALYTICS: 'true' }, key: 'noAnalytics', expected: true },
    { argv: [], env: { MEILI_NO_ANALYTICS: 'false' }, key: 'noAnalytics', expected: false },
    { argv: ['--no-analytics'], env: { MEILI_NO_ANALYTICS: 'false' }, key: 'noAnalytics', expected: true },
    { argv: [], env: { MEILI_HTTP_PAYLOAD_SIZE_LIMIT: '10 MiB' }, key: 'httpPayloadSizeLimit', expected: 10 * 1024 ** 2 },
    { argv: ['--log-level', 'warn'], env: { MEILI_LOG_LEVEL: 'DEBUG' }, key: 'logLevel', expected: 'WARN' },
    { argv: [], env: { MEILI_ENV: 'production', MEILI_MASTER_KEY: KEY }, key: 'env', expected: 'production' },
    { argv: [], env: { MEILI_MAX_INDEXING_THREADS: '3' }, key: 'maxIndexingThreads', expected: 3 },
    { argv: [], env: { MEILI_MAX_INDEXING_THREADS: 'unlimited' }, key: 'maxIndexingThreads', expected: 4 },
    { argv: ['--max-indexing-threads', '0'], env: {}, key: 'maxIndexingThreads', expected: 8 },
    { argv: [], env: { MEILI_EXPERIMENTAL_MAX_NUMBER_OF_BATCHED_TASKS: '0' }, key: 'experimentalMaxNumberOfBatchedTasks', expected: 0 },
    { argv: [], env: { MEILI_SCHEDULE_SNAPSHOT: '3600' }, key: 'scheduleSnapshot', expected: 3600 },
    { argv: ['--schedule-snapshot'], env: {}, key: 'scheduleSnapshot', expected: 86_400 },
    { argv: ['--schedule-snapshot', '60'], env: {}, key: 'scheduleSnapshot', expected: 60 },
    { argv: ['--schedule-snapshot=120'], env: {}, key: 'scheduleSnapshot', expected: 120 },
    { argv: ['--schedule-snapshot', '--no-analytics'], env: {}, key: 'scheduleSnapshot', expected: 86_400 },
    { argv: [], env: { MEILI_EXPERIMENTAL_LOGS_MODE: 'JSON' }, key: 'experimentalLogsMode', expected: 'json' },
    { argv: [], env: { MEILI_EXPERIMENTAL_ALLOWED_IP_NETWORKS: 'any' }, key: 'experimentalAllowedIpNetworks', expected: 'any' },
    // An empty variable is treated as unset.
    { argv: [], env: { MEILI_DB_PATH: '' }, key: 'dbPath', expected: './data.ms' },
  ];
  for (const { argv, env, key, expected } of cases) {
    assert.deepEqual(options(argv, env)[key], expected, `${argv.join(' ')} ${JSON.stringify(env)} → ${key}`);
  }
  // Generated keys may start with a dash; they still are values.
  assert.equal(options(['--master-key', '-n6IndiGtHIPqkmoqdtB7G', '--no-analytics']).masterKey, '-n6IndiGtHIPqkmoqdtB7G');
  assert.equal(options(['--max-indexing-threads', '2']).maxIndexingThreadsExplicit, true);
  assert.equal(options(['--max-indexing-threads', 'unlimited']).maxIndexingThreadsExplicit, false);
});

test('malformed flags and values exit 2 with a message naming the flag or variable', () => {
  const cases: Array<{ argv: string[]; env?: Record<string, string>; includes: string[] }> = [
    { argv: ['--bogus'], includes: ["unexpected argument '--bogus' found"] },
    { argv: ['--db-pth', 'x'], includes: ["unexpected argument '--db-pth'", "tip: a similar argument exists: '--db-path'"] },
    { argv: ['positional'], includes: ["unexpected argument 'positional' found"] },
    { argv: ['-x'], includes: ["unexpected argument '-x' found"] },
    { argv: ['--db-path'], includes: ["a value is required for '--db-path <PATH>' but none was supplied"] },
    { argv: ['--master-key', '--no-analytics'], includes: ["a value is required for '--master-key <KEY>'"] },
    { argv: ['--db-path='], includes: ["invalid value '' for '--db-path <PATH>'"] },
    { argv: ['--no-analytics=yes'], includes: ["unexpected value 'yes' for '--no-analytics' found"] },
    { argv: ['--db-path', 'a', '--db-path', 'b'], includes: ["the argument '--db-path <PATH>' cannot be used multiple times"] },
    { argv: ['--env', 'staging'], includes: ["invalid value 'staging' for '--env <ENV>'", '[possible values: development, production]'] },
    { argv: ['--log-level', 'loud'], includes: ["Log level 'loud' is invalid. Accepted values are 'OFF', 'ERROR', 'WARN', 'INFO', 'DEBUG', and 'TRACE'."] },
    { argv: ['--experimental-logs-mode', 'xml'], includes: ['Unsupported log mode level `xml`. Supported values are `HUMAN` and `JSON`.'] },
    { argv: ['--http-payload-size-limit', 'big'], includes: ["invalid value 'big' for '--http-payload-size-limit <SIZE>'"] },
    { argv: ['--max-indexing-threads', 'many'], includes: ["'--max-indexing-threads <N>'", 'non-negative integer'] },
    { argv: ['--experimental-drop-search-after', '0'], includes: ["'--experimental-drop-search-after <SECONDS>'", 'zero'] },
    { argv: ['--http-addr', 'localhost'], includes: ["invalid value 'localhost' for '--http-addr <ADDR>'", 'missing port'] },
    { argv: ['--schedule-snapshot', 'daily'], includes: ["invalid value 'daily' for '--schedule-snapshot [<SECONDS>]'"] },
    { argv: [], env: { MEILI_NO_ANALYTICS: '1' }, includes: ["invalid value '1' for the environment variable MEILI_NO_ANALYTICS", '[possible values: true, false]'] },
    { argv: [], env: { MEILI_ENV: 'prod' }, includes: ['MEILI_ENV', "'prod'"] },
    { argv: [], env: { MEILI_MAX_INDEXING_MEMORY: '2 GiBs' }, includes: ['MEILI_MAX_INDEXING_MEMORY', "'2 GiBs'"] },
    { argv: [], env: { MEILI_LOG_LEVEL: 'x' }, includes: ['MEILI_LOG_LEVEL', "Log level 'x' is invalid."] },
  ];
  for (const { argv, env, includes } of cases) {
    const outcome = exit(argv, env);
    const label = `${argv.join(' ')} ${JSON.stringify(env ?? {})}`;
    assert.equal(outcome.code, 2, label);
    assert.equal(outcome.stdout, '', label);
    assert.match(outcome.stderr, /^error: /, label);
    assert.ok(outcome.stderr.endsWith("\n\nFor more information, try '--help'.\n"), label);
    for (const fragment of includes) assert.ok(outcome.stderr.includes(fragment), `${label}: ${outcome.stderr}`);
  }
});

test('an overridden environment variable is not validated, as with clap', () => {
  assert.equal(options(['--env', 'development'], { MEILI_ENV: 'bogus' }).env, 'development');
});

test('relationship rules', () => {
  const cases: Array<{ argv: string[]; env?: Record<string, string>; includes: string[] }> = [
    { argv: ['--ignore-missing-snapshot'], includes: ['required arguments were not provided', '--import-snapshot <PATH>'] },
    { argv: ['--ignore-snapshot-if-db-exists'], includes: ['--import-snapshot <PATH>'] },
    { argv: ['--ignore-missing-dump'], includes: ['--import-dump <PATH>'] },
    { argv: ['--ignore-dump-if-db-exists'], includes: ['--import-dump <PATH>'] },
    { argv: [], env: { MEILI_IGNORE_MISSING_DUMP: 'true' }, includes: ['--import-dump <PATH>', 'MEILI_IGNORE_MISSING_DUMP'] },
    { argv: ['--import-dump', 'a.dump', '--import-snapshot', 'b.snapshot'], includes: ["'--import-dump <PATH>' cannot be used with '--import-snapshot <PATH>'"] },
    { argv: ['--import-dump', 'a.dump'], env: { MEILI_IMPORT_SNAPSHOT: 'b' }, includes: ['cannot be used with', 'MEILI_IMPORT_SNAPSHOT'] },
    { argv: ['--s3-bucket-name', 'b'], includes: ['--s3-bucket-url <URL>', '--s3-bucket-region <REGION>', '--s3-snapshot-prefix <PREFIX>'] },
    { argv: ['--s3-access-key', 'k'], includes: ['--s3-secret-key <KEY>'] },
  ];
  for (const { argv, env, includes } of cases) {
    const outcome = exit(argv, env);
    assert.equal(outcome.code, 2, argv.join(' '));
    for (const fragment of includes) assert.ok(outcome.stderr.includes(fragment), `${argv.join(' ')}: ${outcome.stderr}`);
  }
  // Satisfied relationships, and a switch set to false that therefore requires nothing.
  assert.equal(options(['--import-dump', 'a.dump', '--ignore-missing-dump', '--ignore-dump-if-db-exists']).ignoreMissingDump, true);
  assert.equal(options(['--import-snapshot', 's', '--ignore-missing-snapshot']).importSnapshot, 's');
  assert.equal(options([], { MEILI_IGNORE_MISSING_DUMP: 'false' }).ignoreMissingDump, false);
  const s3 = ['--s3-bucket-url', 'https://s3', '--s3-bucket-region', 'r', '--s3-bucket-name', 'n', '--s3-snapshot-prefix', 'p'];
  assert.ok(exit(s3).stderr.includes('--s3-access-key <KEY> or --experimental-s3-role-arn <ARN>'));
  assert.equal(options([...s3, '--s3-access-key', 'a', '--s3-secret-key', 's']).s3BucketName, 'n');
});

test('--help and -h print every flag with its env var, on stdout, exit 0', () => {
  for (const argv of [['--help'], ['-h'], ['--db-path', 'x', '--help', '--bogus']]) {
    const outcome = exit(argv);
    assert.equal(outcome.code, 0);
    assert.equal(outcome.stderr, '');
    for (const spec of OPTION_SPECS) {
      assert.ok(outcome.stdout.includes(`--${spec.long}`), spec.long);
      assert.ok(outcome.stdout.includes(`[env: ${spec.env}]`), spec.env);
    }
    assert.ok(outcome.stdout.includes('[default: localhost:7700]'));
  }
  // An error met before --help wins, as with clap.
  assert.equal(exit(['--bogus', '--help']).code, 2);
  // A malformed environment variable does not prevent --help.
  assert.equal(exit(['--help'], { MEILI_ENV: 'bogus' }).code, 0);
});

test('--version and -V', () => {
  const pkg = JSON.parse(fs.readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  for (const argv of [['--version'], ['-V']]) {
    const outcome = exit(argv);
    assert.equal(outcome.code, 0);
    assert.equal(outcome.stdout, `muninn ${pkg.version} (Meilisearch API 1.50.0)\n`);
    assert.equal(outcome.stderr, '');
  }
});

test('--experimental-dumpless-upgrade is another name of --upgrade-db', () => {
  assert.equal(options([]).upgradeDb, false);
  assert.equal(options(['--experimental-dumpless-upgrade']).upgradeDb, true);
  assert.equal(options([], { MEILI_EXPERIMENTAL_DUMPLESS_UPGRADE: 'true' }).upgradeDb, true);
  assert.equal(options([], { MEILI_EXPERIMENTAL_DUMPLESS_UPGRADE: 'false' }).upgradeDb, false);
  // the main variable wins over the other name's
  assert.equal(options([], { MEILI_UPGRADE_DB: 'false', MEILI_EXPERIMENTAL_DUMPLESS_UPGRADE: 'true' }).upgradeDb, false);
  assert.equal(options(['--upgrade-db', '--experimental-dumpless-upgrade']).upgradeDb, true);
  assert.ok(exit(['--experimental-dumpless-upgrade', '--experimental-dumpless-upgrade']).stderr.includes('cannot be used multiple times'));
  const bad = exit([], { MEILI_EXPERIMENTAL_DUMPLESS_UPGRADE: 'yes' });
  assert.ok(bad.stderr.includes('environment variable MEILI_EXPERIMENTAL_DUMPLESS_UPGRADE'), bad.stderr);
  assert.ok(exit(['--help']).stdout.includes('--experimental-dumpless-upgrade'));
});
