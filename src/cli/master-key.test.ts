import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { generateMasterKey, parseCli, type CliOutcome } from './index.ts';

const cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'muninn-cli-key-'));
after(() => fs.rmSync(cwd, { recursive: true, force: true }));
const SUGGESTION = /\n\nWe generated a new secure master key for you \(you can safely use this token\):\n>> --master-key [A-Za-z0-9_-]{43} <<\n$/;

function run(argv: string[], env: Record<string, string | undefined> = {}): CliOutcome {
  return parseCli({ argv, env, cwd, totalMemory: 1024 ** 3, cpuCount: 2 });
}

test('generateMasterKey: 32 random bytes as unpadded URL-safe base64', () => {
  const key = generateMasterKey();
  assert.match(key, /^[A-Za-z0-9_-]{43}$/);
  assert.equal(Buffer.from(key, 'base64url').length, 32);
  assert.notEqual(generateMasterKey(), key);
});

test('production without a master key refuses to start with the exact message', () => {
  for (const [argv, env] of [
    [['--env', 'production'], {}],
    [[], { MEILI_ENV: 'production' }],
    [[], { MEILI_ENV: 'production', MEILI_MASTER_KEY: '' }],
  ] as Array<[string[], Record<string, string>]>) {
    const outcome = run(argv, env);
    assert.equal(outcome.kind, 'exit');
    if (outcome.kind !== 'exit') continue;
    assert.equal(outcome.code, 1);
    assert.equal(outcome.stdout, '');
    assert.ok(
      outcome.stderr.startsWith(
        'Error: You must provide a master key to secure your instance in a production environment. It can be ' +
          'specified via the MEILI_MASTER_KEY environment variable or the --master-key launch option.\n\n',
      ),
      outcome.stderr,
    );
    assert.match(outcome.stderr, SUGGESTION);
  }
});

test('production with a key shorter than 16 UTF-8 bytes refuses to start', () => {
  const cases: Array<[string, number]> = [
    ['short', 5],
    ['fifteen-bytes!!', 15],
    ['ééééééé', 14],
  ];
  for (const [key, bytes] of cases) {
    const outcome = run(['--env', 'production', '--master-key', key]);
    assert.equal(outcome.kind, 'exit', key);
    if (outcome.kind !== 'exit') continue;
    assert.equal(outcome.code, 1);
    assert.ok(
      outcome.stderr.startsWith(
        `Error: The master key must be at least 16 bytes in a production environment. The provided key is only ${bytes} bytes.\n\n`,
      ),
      outcome.stderr,
    );
    assert.match(outcome.stderr, SUGGESTION);
  }
});

test('production with a long enough key runs without master key warnings', () => {
  for (const key of ['sixteen-bytes-ok', 'éééééééé']) {
    const outcome = run([], { MEILI_ENV: 'production', MEILI_MASTER_KEY: key });
    assert.equal(outcome.kind, 'run', key);
    if (outcome.kind === 'run') {
      assert.equal(outcome.options.masterKey, key);
      assert.deepEqual(outcome.warnings, []);
    }
  }
});

test('development warns about a missing or short key but runs', () => {
  const none = run([]);
  assert.equal(none.kind, 'run');
  if (none.kind === 'run') {
    assert.equal(none.warnings.length, 1);
    assert.ok(none.warnings[0]?.includes('No master key was found'));
    assert.match(none.warnings[0] ?? '', /export MEILI_MASTER_KEY=[A-Za-z0-9_-]{43}/);
  }
  const short = run(['--master-key', 'abc']);
  assert.equal(short.kind, 'run');
  if (short.kind === 'run') {
    assert.equal(short.options.masterKey, 'abc');
    assert.equal(short.warnings.length, 1);
    assert.ok(short.warnings[0]?.includes('only 3 bytes'));
    assert.match(short.warnings[0] ?? '', />> --master-key [A-Za-z0-9_-]{43} <</);
  }
  const strong = run(['--master-key', 'a-long-enough-master-key']);
  assert.deepEqual(strong.kind === 'run' && strong.warnings, []);
});
