// The gallery: every model under the served directory, with its picture
// (made on the server when first scrolled into view, then cached), whether
// it validates and its piece count; each opens in the viewer. A change
// under the directory (an event on /api/events) refreshes what changed.
const $ = (id) => document.getElementById(id);
const cards = new Map();  // path -> {el, modified, summary}
const SUMMARIES_AT_ONCE = 4;
let queue = [];
let running = 0;

function q(path) {
  return 'path=' + encodeURIComponent(path);
}

function summarize(card) {
  queue.push(card);
  pump();
}

function pump() {
  while (running < SUMMARIES_AT_ONCE && queue.length) {
    const card = queue.shift();
    running++;
    fetch(`/api/summary?${q(card.path)}&t=${card.modified}`)
      .then((r) => r.json())
      .then((s) => badge(card, s))
      .catch(() => badge(card, { valid: false, error: { message: 'could not be read' } }))
      .finally(() => { running--; pump(); });
  }
}

function badge(card, s) {
  card.summary = s;
  const b = card.el.querySelector('.badge');
  const info = card.el.querySelector('.info');
  if (s.valid) {
    b.textContent = 'valid';
    b.className = 'badge good';
    info.textContent = `${s.pieces} piece${s.pieces === 1 ? '' : 's'} · ${s.points} points · v${s.version}`;
    card.el.classList.remove('invalid');
  } else {
    b.textContent = 'invalid';
    b.className = 'badge bad';
    const e = s.error || {};
    info.textContent = `${e.kind ? e.kind + ': ' : ''}${e.message || ''}`;
    info.title = info.textContent;
    card.el.classList.add('invalid');
  }
  applyFilter();
}

function picture(card) {
  const img = card.el.querySelector('img');
  img.hidden = false;
  card.el.querySelector('.nopic').hidden = true;
  img.src = `/api/thumb?${q(card.path)}&t=${card.modified}`;
}

function makeCard(f) {
  const a = document.createElement('a');
  a.className = 'card';
  a.href = '/view?' + q(f.path);
  a.dataset.path = f.path;
  const img = document.createElement('img');
  img.loading = 'lazy';
  img.alt = '';
  img.width = 256;
  img.height = 256;
  const none = document.createElement('div');
  none.className = 'nopic quiet';
  none.textContent = 'no picture';
  none.hidden = true;
  img.addEventListener('error', () => { img.hidden = true; none.hidden = false; });
  const name = document.createElement('div');
  name.className = 'name';
  name.textContent = f.path;
  const row = document.createElement('div');
  row.className = 'row';
  const badge = document.createElement('span');
  badge.className = 'badge';
  badge.textContent = '…';
  const info = document.createElement('span');
  info.className = 'info quiet';
  row.append(badge, info);
  a.append(img, none, name, row);
  return a;
}

function applyFilter() {
  const text = $('filter').value.toLowerCase();
  const invalidOnly = $('invalidOnly').checked;
  let shown = 0, invalid = 0, valid = 0;
  for (const c of cards.values()) {
    const ok = c.path.toLowerCase().includes(text) && (!invalidOnly || (c.summary && !c.summary.valid));
    c.el.hidden = !ok;
    if (ok) shown++;
    if (c.summary) (c.summary.valid ? valid++ : invalid++);
  }
  $('status').textContent = `${cards.size} model${cards.size === 1 ? '' : 's'} · ${valid} valid · ${invalid} invalid` +
    (shown !== cards.size ? ` · ${shown} shown` : '') + (listing.truncated ? ' · list truncated' : '');
}

let listing = { files: [], truncated: false };

async function refresh() {
  listing = await (await fetch('/api/list')).json();
  const main = $('cards');
  const seen = new Set();
  for (const f of listing.files) {
    seen.add(f.path);
    let card = cards.get(f.path);
    if (!card) {
      card = { path: f.path, el: makeCard(f), modified: f.modified, summary: null };
      cards.set(f.path, card);
      main.append(card.el);
      picture(card);
      summarize(card);
    } else if (card.modified !== f.modified) {
      card.modified = f.modified;
      picture(card);
      summarize(card);
    }
  }
  for (const [path, card] of cards) {
    if (!seen.has(path)) {
      card.el.remove();
      cards.delete(path);
    }
  }
  // Keep the order of the listing (path order).
  for (const f of listing.files) main.append(cards.get(f.path).el);
  if (!listing.files.length) $('status').textContent = 'no models here (.sskb, .ssk, .json, .jsonl)';
  else applyFilter();
  document.body.dataset.ready = 'true';
}

let pending = false;
function changed() {
  if (pending) return;
  pending = true;
  setTimeout(() => { pending = false; refresh(); }, 200);
}

async function start() {
  const info = await (await fetch('/api/info')).json();
  $('name').textContent = info.name + '/';
  document.title = `${info.name} · sskb view`;
  $('filter').addEventListener('input', applyFilter);
  $('invalidOnly').addEventListener('change', applyFilter);
  await refresh();
  const events = new EventSource('/api/events');
  let first = true;
  events.onmessage = () => { if (first) first = false; else changed(); };
}
start().catch((e) => { $('status').textContent = 'could not list: ' + e.message; });
