// The search dashboard of `GET /` (issue 15, item 6), served to browsers with `--env development`
// as Meilisearch serves its mini-dashboard: pick an index, type, see highlighted hits as you type,
// facet counts and the time of each search. One self-contained page (no build step, nothing
// fetched from elsewhere); the API key it asks for when one is needed stays in the browser
// (localStorage) and is sent only to this server. Hit text is escaped, then the highlight markers
// (control characters no document text keeps through escaping) become <mark> elements, so a
// document cannot inject markup. The script's hash is its only allowed source (CSP).
import crypto from 'node:crypto';

const SCRIPT = String.raw`
const $ = (id) => document.getElementById(id);
const KEY = 'muninn-dashboard-api-key';
const PRE = '\u0001', POST = '\u0002';
let key = localStorage.getItem(KEY) || '';
let seq = 0;

function headers() {
  const h = { 'content-type': 'application/json' };
  if (key) h.authorization = 'Bearer ' + key;
  return h;
}

function escapeHtml(s) {
  return String(s).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);
}

function highlighted(value) {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return escapeHtml(text).split(PRE).join('<mark>').split(POST).join('</mark>');
}

function askForKey(message) {
  $('key-form').hidden = false;
  $('key-message').textContent = message;
  $('search-area').hidden = true;
}

async function loadIndexes() {
  const res = await fetch('/indexes?limit=1000', { headers: headers() });
  if (res.status === 401 || res.status === 403) {
    const body = await res.json().catch(() => ({}));
    askForKey(body.message || 'This server needs an API key.');
    return;
  }
  const body = await res.json();
  $('key-form').hidden = true;
  $('search-area').hidden = false;
  const select = $('index');
  select.replaceChildren();
  for (const index of body.results) {
    const option = document.createElement('option');
    option.value = index.uid;
    option.textContent = index.uid;
    select.append(option);
  }
  $('empty').hidden = body.results.length > 0;
  if (body.results.length > 0) search();
}

async function search() {
  const uid = $('index').value;
  if (!uid) return;
  const mine = ++seq;
  const started = performance.now();
  const res = await fetch('/indexes/' + encodeURIComponent(uid) + '/search', {
    method: 'POST',
    headers: headers(),
    body: JSON.stringify({
      q: $('q').value, limit: 20, facets: ['*'], attributesToHighlight: ['*'],
      highlightPreTag: PRE, highlightPostTag: POST,
    }),
  });
  const body = await res.json();
  if (mine !== seq) return; // a later keystroke's answer wins
  const took = performance.now() - started;
  if (!res.ok) {
    if (res.status === 401 || res.status === 403) return askForKey(body.message);
    $('status').textContent = body.message || 'Search failed';
    $('hits').replaceChildren();
    return;
  }
  const total = body.estimatedTotalHits ?? body.totalHits ?? body.hits.length;
  $('status').textContent = total + ' hits in ' + body.processingTimeMs + ' ms (' + took.toFixed(1) + ' ms round trip)';
  renderHits(body.hits);
  renderFacets(body.facetDistribution || {});
}

function renderHits(hits) {
  const list = $('hits');
  list.replaceChildren();
  for (const hit of hits) {
    const item = document.createElement('li');
    item.className = 'hit';
    const shown = hit._formatted || hit;
    const rows = Object.keys(shown).filter((k) => !k.startsWith('_')).map((k) =>
      '<div class="field"><span class="name">' + escapeHtml(k) + '</span> <span class="value">' + highlighted(shown[k]) + '</span></div>');
    item.innerHTML = rows.join('');
    list.append(item);
  }
}

function renderFacets(distribution) {
  const box = $('facets');
  box.replaceChildren();
  for (const [facet, counts] of Object.entries(distribution)) {
    const section = document.createElement('section');
    const title = document.createElement('h3');
    title.textContent = facet;
    section.append(title);
    const list = document.createElement('ul');
    for (const [value, count] of Object.entries(counts)) {
      const li = document.createElement('li');
      li.textContent = value + ' (' + count + ')';
      list.append(li);
    }
    section.append(list);
    box.append(section);
  }
}

$('key-form').addEventListener('submit', (e) => {
  e.preventDefault();
  key = $('key').value.trim();
  localStorage.setItem(KEY, key);
  loadIndexes();
});
$('forget').addEventListener('click', () => {
  key = '';
  localStorage.removeItem(KEY);
  loadIndexes();
});
$('q').addEventListener('input', () => search());
$('index').addEventListener('change', () => search());
loadIndexes();
`;

const STYLE = `
body { font: 15px/1.4 system-ui, sans-serif; margin: 0; color: #1d1d1f; background: #fafafa; }
header { display: flex; gap: 1rem; align-items: center; padding: .8rem 1.2rem; background: #23263b; color: #fff; }
header h1 { font-size: 1.1rem; margin: 0; font-weight: 600; }
main { display: grid; grid-template-columns: 14rem 1fr; gap: 1.2rem; padding: 1.2rem; }
#key-form { padding: 1.2rem; }
input[type=search] { width: 100%; font-size: 1.1rem; padding: .5rem .7rem; box-sizing: border-box; }
.hit { background: #fff; border: 1px solid #e3e3e8; border-radius: 6px; padding: .6rem .8rem; margin: 0 0 .6rem; list-style: none; }
#hits { padding: 0; }
.field .name { color: #6b6b80; font-size: .85rem; }
mark { background: #ffe38a; padding: 0 1px; }
#facets h3 { font-size: .9rem; margin: .8rem 0 .3rem; }
#facets ul { padding-left: 1rem; margin: 0; font-size: .9rem; }
#status { color: #6b6b80; margin: .5rem 0; }
`;

const HASH = crypto.createHash('sha256').update(SCRIPT).digest('base64');

export const DASHBOARD_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Muninn</title>
<style>${STYLE}</style>
</head>
<body>
<header><h1>Muninn</h1><select id="index" aria-label="Index"></select><button id="forget" type="button">Forget the API key</button></header>
<form id="key-form" hidden>
  <p id="key-message"></p>
  <label>API key <input id="key" type="password" autocomplete="off"></label>
  <button type="submit">Use this key</button>
  <p>The key is kept in this browser only.</p>
</form>
<main id="search-area" hidden>
  <aside id="facets"></aside>
  <div>
    <input id="q" type="search" placeholder="Search…" autofocus aria-label="Search">
    <p id="status"></p>
    <p id="empty" hidden>No index yet: add documents through the API, then reload.</p>
    <ul id="hits"></ul>
  </div>
</main>
<script>${SCRIPT}</script>
</body>
</html>
`;

/** Only the page's own script, styles and requests to this server. */
export const DASHBOARD_CSP = `default-src 'none'; script-src 'sha256-${HASH}'; style-src 'unsafe-inline'; connect-src 'self'; img-src 'self' data:; form-action 'none'; base-uri 'none'; frame-ancestors 'none'`;
