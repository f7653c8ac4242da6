// Launch options Muninn cannot honour stop the start with a message naming them (support.ts).
// Checks:
//  1. each unsupported option, given as a flag, a variable or a config-file key, exits 1 with
//     `Error: <that option> is not supported yet: …`;
//  2. a switch set to false, and the options Muninn acts on, pass;
//  3. half-configured TLS (one of certificate/key, a TLS-only option without both, --ssl-require-auth
//     without --ssl-auth-path) is refused.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { checkSupport, parseCli, type CliOutcome } from './index.ts';

const emptyCwd = fs.mkdtempSync(path.join(os.tmpdir(), 'muninn-cli-support-'));
const made: string[] = [emptyCwd];
after(() => {
  for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
});

function launch(argv: string[], env: Record<string, string> = {}, cwd = emptyCwd): CliOutcome {
  return checkSupport(parseCli({ argv, env, cwd, totalMemory: 8 * 1024 ** 3, cpuCount: 4 }));
}

function refused(argv: string[], env: Record<string, string> = {}, cwd = emptyCwd): string {
  const outcome = launch(argv, env, cwd);
  if (outcome.kind !== 'exit') assert.fail(`expected a refusal of ${argv.join(' ')} ${JSON.stringify(env)}`);
  assert.equal(outcome.code, 1);
  assert.equal(outcome.stdout, '');
  return outcome.stderr;
}

const S3 = ['--s3-bucket-url', 'https://s3', '--s3-bucket-region', 'r', '--s3-bucket-name', 'n', '--s3-snapshot-prefix', 'p', '--s3-access-key', 'a', '--s3-secret-key', 's'];

test('options Muninn cannot act on yet stop the start, naming the option', () => {
  const cases: { argv: string[]; env?: Record<string, string>; names: string; why: RegExp }[] = [
    { argv: ['--experimental-personalization-api-key', 'k'], names: "'--experimental-personalization-api-key <KEY>'", why: /personalize/ },
    { argv: S3, names: "'--s3-bucket-url <URL>'", why: /S3/ },
    { argv: ['--experimental-s3-max-in-flight-parts', '3'], names: "'--experimental-s3-max-in-flight-parts <N>'", why: /S3/ },
  ];
  for (const { argv, env, names, why } of cases) {
    const stderr = refused(argv, env);
    assert.ok(stderr.startsWith(`Error: ${names}`), stderr);
    assert.ok(stderr.includes('is not supported yet'), stderr);
    assert.match(stderr, why);
  }
});

test('a refused option set in config.toml is named by its key', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'muninn-cli-support-file-'));
  made.push(dir);
  fs.writeFileSync(path.join(dir, 'config.toml'), 'experimental_personalization_api_key = "k"\n');
  assert.match(refused([], {}, dir), /^Error: `experimental_personalization_api_key` \(in the ".*config\.toml" configuration file\) is not supported yet/);
  // As in Meilisearch, import_dump has no effect in the file: it is not refused either.
  fs.writeFileSync(path.join(dir, 'config.toml'), 'import_dump = "a.dump"\nschedule_snapshot = false\n');
  assert.equal(launch([], {}, dir).kind, 'run');
});

test('switches turned off and the options Muninn acts on pass', () => {
  const outcome = launch(
    ['--db-path', 'x', '--log-level', 'debug', '--experimental-logs-mode', 'json', '--upgrade-db', '--import-dump', 'a.dump', '--ignore-missing-dump', '--schedule-snapshot', '3600', '--snapshot-dir', 's', '--experimental-contains-filter', '--max-indexing-threads', '1'],
    { MEILI_EXPERIMENTAL_ENABLE_METRICS: 'false', MEILI_SCHEDULE_SNAPSHOT: 'false', MEILI_NO_ANALYTICS: 'true' },
  );
  assert.equal(outcome.kind, 'run', outcome.kind === 'exit' ? outcome.stderr : '');
});

test('half-configured TLS is refused', () => {
  assert.match(refused(['--ssl-cert-path', 'c.pem']), /^Error: '--ssl-cert-path <PATH>' needs '--ssl-key-path <PATH>' too/);
  assert.match(refused([], { MEILI_SSL_KEY_PATH: 'k.pem' }), /^Error: 'MEILI_SSL_KEY_PATH' \(environment variable of '--ssl-key-path'\) needs '--ssl-cert-path <PATH>' too/);
  for (const flag of [['--ssl-auth-path', 'ca.pem'], ['--ssl-ocsp-path', 'o.der'], ['--ssl-require-auth'], ['--ssl-resumption'], ['--ssl-tickets']]) {
    assert.match(refused(flag), new RegExp(`^Error: '${flag[0]}.*' needs '--ssl-cert-path <PATH>' and '--ssl-key-path <PATH>'`));
  }
  const pair = ['--ssl-cert-path', 'c.pem', '--ssl-key-path', 'k.pem'];
  assert.match(refused([...pair, '--ssl-require-auth']), /^Error: '--ssl-require-auth' needs '--ssl-auth-path <PATH>'/);
  const ok = launch([...pair, '--ssl-require-auth', '--ssl-auth-path', 'ca.pem', '--ssl-tickets', '--ssl-resumption', '--ssl-ocsp-path', 'o.der']);
  assert.equal(ok.kind, 'run');
  if (ok.kind === 'run') assert.equal(ok.options.sslRequireAuth, true);
});
