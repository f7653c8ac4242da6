// Properties checked:
// 1. activity in a row gives one release, after the quiet spell
// 2. activity after a release arms the next one; stop() cancels a pending release
// 3. collectGarbage runs (the runtime hands out `gc`) and can be called again
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { collectGarbage, whenQuiet } from './idle-release.ts';

// the quiet timer does not hold the process open: the tests do, while they wait
const alive = setInterval(() => {}, 1000);
test.after(() => clearInterval(alive));

test('one release per quiet spell', async () => {
  let releases = 0;
  let released!: () => void;
  let next = new Promise<void>((r) => (released = r));
  const quiet = whenQuiet(5, async () => {
    releases++;
    released();
  }, (err) => assert.fail(String(err)));
  quiet.activity();
  quiet.activity();
  quiet.activity();
  await next;
  assert.equal(releases, 1);
  next = new Promise<void>((r) => (released = r));
  quiet.activity();
  await next;
  assert.equal(releases, 2);
  quiet.activity();
  quiet.stop();
  await new Promise((r) => setTimeout(r, 30));
  assert.equal(releases, 2);
});

test('a failing release is reported', async () => {
  const reported = new Promise<unknown>((resolve) => {
    const quiet = whenQuiet(1, async () => {
      throw new Error('boom');
    }, resolve);
    quiet.activity();
  });
  assert.match(String(await reported), /boom/);
});

test('garbage collection can be run on demand', () => {
  let garbage: unknown[] | null = Array.from({ length: 1000 }, (_, i) => ({ i }));
  assert.equal(garbage.length, 1000);
  garbage = null;
  collectGarbage();
  collectGarbage();
});
