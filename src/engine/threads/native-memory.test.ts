import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { releaseFreedNativeMemory } from './native-memory.ts';

const glibc = process.platform === 'linux' && typeof (process.report.getReport() as { header?: { glibcVersionRuntime?: string } }).header?.glibcVersionRuntime === 'string';

test('freed native memory is handed back on glibc, and nothing is asked elsewhere', () => {
  // koffi is an optional dependency: on glibc Linux `npm ci` installs it with its prebuilt binary
  assert.equal(releaseFreedNativeMemory(), glibc);
  assert.equal(releaseFreedNativeMemory(), glibc, 'the second call uses the function loaded by the first');
});

test('MUNINN_MALLOC_TRIM=0 turns it off', () => {
  const module = fileURLToPath(new URL('./native-memory.ts', import.meta.url));
  const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', `import { releaseFreedNativeMemory } from ${JSON.stringify(module)}; process.stdout.write(String(releaseFreedNativeMemory()));`], {
    env: { ...process.env, MUNINN_MALLOC_TRIM: '0' },
    encoding: 'utf8',
  });
  assert.equal(out, 'false');
});
