import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseCli, type CliOutcome, type Options } from './index.ts';

const GIB = 1024 ** 3;

const made: string[] = [];
after(() => {
  for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
});

/** A fresh directory holding `config.toml` (or another name) with `content` (removed after the file's tests). */
function dirWith(content: string | null, name = 'config.toml'): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'muninn-cli-config-'));
  made.push(dir);
  if (content !== null) fs.writeFileSync(path.join(dir, name), content);
  return dir;
}

function run(cwd: string, argv: string[] = [], env: Record<string, string | undefined> = {}): CliOutcome {
  return parseCli({ argv, env, cwd, totalMemory: 12 * GIB, cpuCount: 8 });
}

function options(cwd: string, argv: string[] = [], env: Record<string, string | undefined> = {}): Options {
  const outcome = run(cwd, argv, env);
  if (outcome.kind !== 'run') assert.fail(`expected run, got exit ${outcome.code}: ${outcome.stderr}`);
  return outcome.options;
}

function failure(cwd: string, argv: string[] = [], env: Record<string, string | undefined> = {}): Extract<CliOutcome, { kind: 'exit' }> {
  const outcome = run(cwd, argv, env);
  if (outcome.kind !== 'exit') assert.fail('expected exit, got run');
  return outcome;
}

test('./config.toml in the working directory is read when present', () => {
  const dir = dirWith('db_path = "/from/file"\nno_analytics = true\n');
  const o = options(dir);
  assert.equal(o.dbPath, '/from/file');
  assert.equal(o.noAnalytics, true);
  assert.equal(o.configFilePath, './config.toml');
  // Absent default file: silently ignored.
  assert.equal(options(dirWith(null)).configFilePath, null);
});

test('precedence: flag > environment variable > config file > default', () => {
  const dir = dirWith('db_path = "/file"\nhttp_addr = "0.0.0.0:1234"\nlog_level = "DEBUG"\nenv = "development"\n');
  const cases: Array<{ argv: string[]; env: Record<string, string>; key: keyof Options; expected: unknown }> = [
    { argv: [], env: {}, key: 'dbPath', expected: '/file' },
    { argv: [], env: { MEILI_DB_PATH: '/env' }, key: 'dbPath', expected: '/env' },
    { argv: ['--db-path', '/flag'], env: { MEILI_DB_PATH: '/env' }, key: 'dbPath', expected: '/flag' },
    { argv: ['--db-path', '/flag'], env: {}, key: 'dbPath', expected: '/flag' },
    { argv: [], env: {}, key: 'httpAddr', expected: '0.0.0.0:1234' },
    { argv: [], env: { MEILI_LOG_LEVEL: 'error' }, key: 'logLevel', expected: 'ERROR' },
    { argv: [], env: {}, key: 'logLevel', expected: 'DEBUG' },
    { argv: [], env: {}, key: 'snapshotDir', expected: 'snapshots/' },
  ];
  for (const { argv, env, key, expected } of cases) {
    assert.deepEqual(options(dir, argv, env)[key], expected, `${argv.join(' ')} ${JSON.stringify(env)} → ${key}`);
  }
});

test('explicit config path from the flag or MEILI_CONFIG_FILE_PATH, relative to the working directory', () => {
  const dir = dirWith('dump_dir = "/custom-dumps"\n', 'custom.toml');
  fs.writeFileSync(path.join(dir, 'config.toml'), 'dump_dir = "/default-dumps"\n');
  assert.equal(options(dir, ['--config-file-path', 'custom.toml']).dumpDir, '/custom-dumps');
  assert.equal(options(dir, [], { MEILI_CONFIG_FILE_PATH: 'custom.toml' }).dumpDir, '/custom-dumps');
  assert.equal(options(dir, ['--config-file-path', path.join(dir, 'custom.toml')]).dumpDir, '/custom-dumps');
  // The flag wins over the variable.
  assert.equal(options(dir, ['--config-file-path', 'config.toml'], { MEILI_CONFIG_FILE_PATH: 'custom.toml' }).dumpDir, '/default-dumps');
  assert.equal(options(dir, ['--config-file-path', 'custom.toml']).configFilePath, 'custom.toml');
});

test('an explicit config path that cannot be read is a startup error with the Meilisearch message', () => {
  const dir = dirWith(null);
  const outcome = failure(dir, ['--config-file-path', 'missing.toml']);
  assert.equal(outcome.code, 1);
  assert.equal(
    outcome.stderr,
    'Error: unable to open or read the "missing.toml" configuration file: No such file or directory (os error 2).\n',
  );
  const viaEnv = failure(dir, [], { MEILI_CONFIG_FILE_PATH: dir });
  assert.equal(viaEnv.code, 1);
  assert.ok(viaEnv.stderr.includes(`unable to open or read the ${JSON.stringify(dir)} configuration file: Is a directory (os error 21).`));
});

test('an injected reader is used, and its error message is kept', () => {
  const files: Record<string, string> = { '/virtual/config.toml': 'master_key = "from-virtual-file"' };
  const readFile = (p: string): string => {
    const text = files[p];
    if (text === undefined) throw new Error(`no such virtual file ${p}`);
    return text;
  };
  const ok = parseCli({ argv: [], env: {}, cwd: '/virtual', readFile, totalMemory: GIB, cpuCount: 2 });
  assert.equal(ok.kind === 'run' && ok.options.masterKey, 'from-virtual-file');
  const ko = parseCli({ argv: ['--config-file-path', 'x.toml'], env: {}, cwd: '/virtual', readFile, totalMemory: GIB, cpuCount: 2 });
  assert.equal(ko.kind === 'exit' && ko.stderr, 'Error: unable to open or read the "x.toml" configuration file: no such virtual file /virtual/x.toml.\n');
});

test('structural config file errors exit 1', () => {
  const cases: Array<{ content: string; includes: string }> = [
    { content: 'config_file_path = "other.toml"\n', includes: 'Error: `config_file_path` is not supported in the configuration file\n' },
    { content: 'db_pth = "x"\n', includes: 'unknown field `db_pth` in the "./config.toml" configuration file: did you mean `db_path`?' },
    { content: 'frobnicate = 1\n', includes: 'unknown field `frobnicate`' },
    { content: '[server]\nport = 1\n', includes: 'unknown field `server`' },
    { content: 'db_path = \n', includes: 'unable to parse the "./config.toml" configuration file: Invalid TOML document' },
  ];
  for (const { content, includes } of cases) {
    const outcome = failure(dirWith(content));
    assert.equal(outcome.code, 1, content);
    assert.ok(outcome.stderr.includes(includes), `${content}: ${outcome.stderr}`);
  }
  // Unknown keys are reported before the self-reference, as in Meilisearch.
  assert.ok(failure(dirWith('config_file_path = "x"\nnope = 1\n')).stderr.includes('unknown field `nope`'));
});

test('malformed config values exit 2 naming the key, even when overridden', () => {
  const cases: Array<{ content: string; includes: string[] }> = [
    { content: 'env = "staging"', includes: ['invalid value "staging" for `env` in the "./config.toml" configuration file', '[possible values: development, production]'] },
    { content: 'no_analytics = "yes"', includes: ['`no_analytics`', 'expected a boolean, found a string'] },
    { content: 'max_indexing_memory = "lots"', includes: ['`max_indexing_memory`', 'expected a number of bytes'] },
    { content: 'max_indexing_memory = 1.5', includes: ['`max_indexing_memory`', 'found a float'] },
    { content: 'db_path = 5', includes: ['`db_path`', 'expected a string, found an integer'] },
    { content: 'log_level = "chatty"', includes: ["Log level 'chatty' is invalid."] },
    { content: 'schedule_snapshot = "hourly"', includes: ['`schedule_snapshot`', 'expected a boolean or an integer'] },
    { content: 'experimental_search_queue_size = -1', includes: ['`experimental_search_queue_size`', 'non-negative integer'] },
  ];
  for (const { content, includes } of cases) {
    const outcome = failure(dirWith(content), ['--env', 'development', '--db-path', 'x']);
    assert.equal(outcome.code, 2, content);
    assert.ok(outcome.stderr.endsWith("\n\nFor more information, try '--help'.\n"), content);
    for (const fragment of includes) assert.ok(outcome.stderr.includes(fragment), `${content}: ${outcome.stderr}`);
  }
});

test('typed config values: booleans, integers, byte sizes, schedule_snapshot, lists', () => {
  const o = options(
    dirWith(
      [
        'http_payload_size_limit = 1048576',
        "max_indexing_memory = '107.7Gb'",
        'experimental_limit_batched_tasks_total_size = "2 GiB"',
        'max_indexing_threads = 2',
        'experimental_max_number_of_batched_tasks = 0',
        'experimental_enable_metrics = true',
        'experimental_legacy_search_default = true',
        'experimental_allowed_ip_networks = ["10.0.0.0/8", "fd00::/8"]',
        'schedule_snapshot = true',
      ].join('\n'),
    ),
  );
  assert.equal(o.httpPayloadSizeLimit, 1_048_576);
  assert.equal(o.maxIndexingMemory, 107_700_000_000);
  assert.equal(o.experimentalLimitBatchedTasksTotalSize, 2 * GIB);
  assert.equal(o.maxIndexingThreads, 2);
  assert.equal(o.experimentalMaxNumberOfBatchedTasks, 0);
  assert.equal(o.experimentalEnableMetrics, true);
  assert.equal(o.experimentalLegacySearchDefault, true);
  assert.deepEqual(o.experimentalAllowedIpNetworks, [
    { cidr: '10.0.0.0/8', address: '10.0.0.0', prefix: 8, family: 'ipv4' },
    { cidr: 'fd00::/8', address: 'fd00::', prefix: 8, family: 'ipv6' },
  ]);
  assert.equal(o.scheduleSnapshot, 86_400);
  assert.equal(options(dirWith('schedule_snapshot = false')).scheduleSnapshot, null);
  assert.equal(options(dirWith('schedule_snapshot = 600')).scheduleSnapshot, 600);
  assert.equal(options(dirWith('experimental_max_number_of_batched_tasks = 18446744073709551615')).experimentalMaxNumberOfBatchedTasks, Number.POSITIVE_INFINITY);
});

test('import/ignore keys are accepted in the file but have no effect (Meilisearch quirk)', () => {
  const outcome = run(dirWith('import_dump = "x.dump"\nignore_missing_dump = true\nignore_missing_snapshot = true\n'));
  assert.equal(outcome.kind, 'run');
  if (outcome.kind !== 'run') return;
  assert.equal(outcome.options.importDump, null);
  assert.equal(outcome.options.ignoreMissingDump, false);
  // Not exported, so `ignore_missing_snapshot` does not trip the `requires --import-snapshot` rule.
  assert.equal(outcome.options.ignoreMissingSnapshot, false);
  assert.ok(outcome.warnings.some((w) => w.includes('`import_dump`') && w.includes('no effect')));
});

test('relationship rules see values coming from the config file', () => {
  const outcome = failure(dirWith('s3_bucket_name = "bucket"\n'));
  assert.equal(outcome.code, 2);
  assert.ok(outcome.stderr.includes('--s3-bucket-region <REGION>'));
  assert.ok(outcome.stderr.includes('`s3_bucket_name`'));
});

test('experimental_dumpless_upgrade is another key of upgrade_db', () => {
  assert.equal(options(dirWith('experimental_dumpless_upgrade = true\n')).upgradeDb, true);
  assert.equal(options(dirWith('upgrade_db = true\n')).upgradeDb, true);
});
