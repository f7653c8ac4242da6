// The search dashboard of `GET /` in a real headless Chromium (Debian's `chromium`, driven by
// playwright-core): it asks for the API key, lists the indexes, shows highlighted hits and facet
// counts as the user types, and never renders document text as markup. Skipped, saying why, where
// no Chromium is installed (`.ci/run` installs it).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { startTestServer } from './helpers.ts';

const CHROMIUM = process.env.MUNINN_CHROMIUM ?? '/usr/bin/chromium';
const missing = fs.existsSync(CHROMIUM) ? false : `no Chromium at ${CHROMIUM} (install Debian's chromium package, or set MUNINN_CHROMIUM)`;

// the flags a closed network needs (no background connections, no sandbox as root)
const ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

test('the dashboard: key prompt, indexes, highlighted hits and facets as you type', { skip: missing }, async () => {
  const t = await startTestServer({ args: ['--env', 'development'] });
  let browser: Browser | null = null;
  try {
    await t.client.index('movies').updateFilterableAttributes(['genre']).waitTask();
    await t.client.index('movies').addDocuments([
      { id: 1, title: 'Carol', genre: 'drama' },
      { id: 2, title: 'Carol of the Bells', genre: 'music' },
      { id: 3, title: '<img src=x onerror="window.pwned=1"> Carol strikes', genre: 'drama' },
      { id: 4, title: 'Heat', genre: 'crime' },
    ]).waitTask();

    browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (err) => errors.push(err.message));
    const res = await page.goto(t.url + '/');
    assert.equal(res?.headers()['content-type'], 'text/html; charset=utf-8');
    assert.match(res?.headers()['content-security-policy'] ?? '', /script-src 'sha256-/);

    // a master key is set: the page asks for a key
    await page.waitForSelector('#key-form:not([hidden])');
    await page.fill('#key', t.masterKey!);
    await page.click('#key-form button[type=submit]');
    await page.waitForSelector('#search-area:not([hidden])');
    assert.deepEqual(await page.$$eval('#index option', (os) => os.map((o) => (o as HTMLOptionElement).value)), ['movies']);
    assert.equal(await page.evaluate(() => localStorage.getItem('muninn-dashboard-api-key')), t.masterKey);

    await page.fill('#q', 'carol');
    await page.waitForFunction(() => document.querySelectorAll('#hits .hit').length === 3);
    const marks = await page.$$eval('#hits mark', (ms) => ms.map((m) => m.textContent));
    assert.ok(marks.length >= 3 && marks.every((m) => m?.toLowerCase() === 'carol'), JSON.stringify(marks));
    assert.match((await page.textContent('#status')) ?? '', /^3 hits in \d+ ms \(\d+\.\d ms round trip\)$/);
    const facets = await page.$$eval('#facets li', (ls) => ls.map((l) => l.textContent));
    assert.deepEqual(facets.sort(), ['drama (2)', 'music (1)']);
    // document text is text: no element came from it, no script ran
    assert.equal(await page.$$eval('#hits img', (is) => is.length), 0);
    assert.equal(await page.evaluate(() => (window as unknown as { pwned?: number }).pwned), undefined);
    assert.match((await page.textContent('#hits')) ?? '', /<img src=x/);

    // as you type: another query, other hits and facets
    await page.fill('#q', 'hea');
    await page.waitForFunction(() => document.querySelectorAll('#hits .hit').length === 1 && document.querySelector('#hits mark')?.textContent === 'Hea');
    assert.deepEqual(await page.$$eval('#facets li', (ls) => ls.map((l) => l.textContent)), ['crime (1)']);
    assert.deepEqual(errors, []);
  } finally {
    await browser?.close();
    await t.close();
  }
});

test('GET / answers JSON to clients, and to browsers in production', async () => {
  const dev = await startTestServer({ args: ['--env', 'development'] });
  try {
    assert.deepEqual((await dev.fetch('GET', '/', { key: null })).body, { status: 'Meilisearch is running' });
    const page = await dev.fetch('GET', '/', { key: null, headers: { accept: 'text/html' } });
    assert.match(String(page.body), /^<!doctype html>/);
  } finally {
    await dev.close();
  }
  const prod = await startTestServer({ args: ['--env', 'production'] });
  try {
    assert.deepEqual((await prod.fetch('GET', '/', { key: null, headers: { accept: 'text/html' } })).body, { status: 'Meilisearch is running' });
  } finally {
    await prod.close();
  }
});
