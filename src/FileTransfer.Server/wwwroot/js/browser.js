// The folder view: breadcrumbs, the sorted and filtered table, paging through the listing API.
// The API lists files by name prefix, recursively; a folder is shown as one row made of the names
// below it, so a folder's count and size are those of the files loaded so far.

import { ApiError, apiKey, createReadLink, deleteFile, fileUrl, listPage } from './api.js';
import { askForKey, confirmDelete, replaceKey, share } from './dialogs.js';
import { byId, h, hidden, replaceChildren } from './dom.js';
import { formatDate, formatSize, plural } from './format.js';
import { mayWrite } from './grants.js';
import { explain } from './messages.js';
import { clearKeyError, notify, showError } from './notices.js';

const pageSize = clamp(Number(new URLSearchParams(location.search).get('pageSize')) || 500, 1, 10000);
const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });

const state = {
  folder: '', // '' or 'a/b/'
  entries: [],
  folders: new Map(),
  nextToken: null,
  loaded: 0, // files read from the listing for this folder
  loading: false,
  generation: 0,
  sort: { key: 'name', direction: 1 },
  filter: '',
  // Whether the server lets this browser read without a key (Auth:AllowAnonymousRead): then
  // download links are plain links; otherwise each download asks for a short-lived signed link.
  anonymousRead: null,
  probe: Promise.resolve(),
};

export const currentFolder = () => state.folder;

/** The folder in the address: #/a/b/ -> 'a/b/' (each segment percent-encoded). */
export function folderFromHash() {
  const raw = location.hash.startsWith('#/') ? location.hash.slice(2) : '';
  const segments = raw.split('/').filter((s) => s !== '');
  try {
    return segments.map(decodeURIComponent).map((s) => `${s}/`).join('');
  } catch {
    return '';
  }
}

export function hashOf(folder) {
  return `#/${folder.split('/').filter((s) => s !== '').map(encodeURIComponent).map((s) => `${s}/`).join('')}`;
}

export function initBrowser() {
  byId('filter').addEventListener('input', (event) => {
    state.filter = event.target.value.trim().toLocaleLowerCase();
    render();
  });
  for (const button of document.querySelectorAll('#listing thead button[data-sort]')) {
    button.addEventListener('click', () => {
      const key = button.dataset.sort;
      state.sort = { key, direction: state.sort.key === key ? -state.sort.direction : 1 };
      render();
    });
  }
  // The skip link moves the focus to the file list and leaves the address alone: its "#files" is no
  // folder, and the hash change would show the top folder in place of the one on screen.
  document.querySelector('.skip-link').addEventListener('click', (event) => {
    event.preventDefault();
    byId('files').focus();
  });
  byId('more').addEventListener('click', () => load({ append: true }));
  byId('refresh').addEventListener('click', () => load());
  window.addEventListener('hashchange', () => {
    state.folder = folderFromHash();
    byId('filter').value = '';
    state.filter = '';
    load();
  });
  state.folder = folderFromHash();
}

/** Loads the first page of the current folder (or, with append, the next page). */
export async function load({ append = false } = {}) {
  if (append && (!state.nextToken || state.loading)) {
    return;
  }
  const generation = append ? state.generation : ++state.generation;
  const folder = state.folder;
  state.loading = true;
  renderBreadcrumbs();
  setBusy(true);
  try {
    const askedAt = performance.now();
    const page = await listPage(folder, pageSize, append ? state.nextToken : null);
    if (generation !== state.generation) {
      return;
    }
    if (!append) {
      state.entries = [];
      state.folders = new Map();
      state.loaded = 0;
      if (!apiKey.get()) {
        state.anonymousRead = true;
      } else {
        clearKeyError();
      }
    }
    addFiles(page.files, folder, askedAt);
    state.nextToken = page.nextToken;
  } catch (error) {
    if (generation !== state.generation) {
      return;
    }
    if (error instanceof ApiError && error.status === 401) {
      if (!append) {
        state.entries = [];
        state.folders = new Map();
        state.nextToken = null;
      }
      const message = explain(error, { action: 'list' });
      if (apiKey.get()) {
        apiKey.clear();
        document.dispatchEvent(new Event('keychange'));
      }
      showError(message, { forKey: true });
      if (await askForKey(message)) {
        document.dispatchEvent(new Event('keychange'));
        return;
      }
    } else {
      showError(explain(error, { action: 'list' }));
    }
  } finally {
    if (generation === state.generation) {
      state.loading = false;
      setBusy(false);
      render();
    }
  }
}

/** Whether downloads can be plain links; asked once, anonymously, when a key is in use. */
export function probeAnonymousRead() {
  if (!apiKey.get()) {
    return;
  }
  state.probe = listPage('', 1, null, { anonymous: true }).then(
    () => {
      state.anonymousRead = true;
    },
    () => {
      state.anonymousRead = false;
    },
  );
}

function addFiles(files, folder, askedAt) {
  for (const file of files) {
    if (!file.name.startsWith(folder) || deletedSince(file.name, askedAt)) {
      continue;
    }
    state.loaded++;
    const rest = file.name.slice(folder.length);
    const slash = rest.indexOf('/');
    if (slash < 0) {
      state.entries.push({
        kind: 'file',
        name: rest,
        path: file.name,
        size: file.size,
        modified: Date.parse(file.lastModified),
        eTag: file.eTag,
      });
      continue;
    }
    const name = rest.slice(0, slash);
    let entry = state.folders.get(name);
    if (!entry) {
      entry = { kind: 'folder', name, path: `${folder}${name}/`, size: 0, count: 0, modified: 0 };
      state.folders.set(name, entry);
      state.entries.push(entry);
    }
    entry.count++;
    entry.size += file.size;
    entry.modified = Math.max(entry.modified, Date.parse(file.lastModified) || 0);
  }
}

function setBusy(busy) {
  byId('listing').setAttribute('aria-busy', String(busy));
  if (busy) {
    byId('summary').textContent = 'Loading…';
  }
}

function renderBreadcrumbs() {
  const segments = state.folder.split('/').filter((s) => s !== '');
  const crumbs = [{ label: 'All files', folder: '' }];
  segments.forEach((segment, i) => crumbs.push({ label: segment, folder: `${segments.slice(0, i + 1).join('/')}/` }));
  replaceChildren(
    byId('breadcrumbs'),
    crumbs.map((crumb, i) =>
      h('li', {}, i === crumbs.length - 1 ? h('span', { 'aria-current': 'page' }, crumb.label) : h('a', { href: hashOf(crumb.folder) }, crumb.label)),
    ),
  );
  const here = state.folder === '' ? 'the top folder' : `“${state.folder.slice(0, -1)}”`;
  byId('upload-target').textContent = here;
  // Uploads are offered only where the key may write (the server refuses the rest anyway).
  byId('upload-area').hidden = !mayWrite(state.folder);
  byId('drop-target').textContent = here;
  byId('listing-caption').textContent = `Contents of ${here}`;
  document.title = state.folder === '' ? 'FileTransfer' : `${state.folder} · FileTransfer`;
}

function visibleEntries() {
  const { key, direction } = state.sort;
  const compare = {
    name: (a, b) => collator.compare(a.name, b.name),
    size: (a, b) => a.size - b.size,
    date: (a, b) => a.modified - b.modified,
  }[key];
  return state.entries
    .filter((entry) => state.filter === '' || entry.name.toLocaleLowerCase().includes(state.filter))
    .sort((a, b) => (a.kind !== b.kind ? (a.kind === 'folder' ? -1 : 1) : direction * compare(a, b) || collator.compare(a.name, b.name)));
}

export function render() {
  renderBreadcrumbs();
  for (const th of document.querySelectorAll('#listing thead th[data-sort]')) {
    if (th.dataset.sort === state.sort.key) {
      th.setAttribute('aria-sort', state.sort.direction === 1 ? 'ascending' : 'descending');
    } else {
      th.removeAttribute('aria-sort');
    }
  }
  const entries = visibleEntries();
  replaceChildren(byId('rows'), entries.map(row));
  byId('empty').hidden = state.loading || state.entries.length > 0 || state.nextToken !== null;
  byId('more').hidden = state.nextToken === null;
  if (!state.loading) {
    byId('summary').textContent = summary(entries);
  }
}

function summary(entries) {
  const files = state.entries.filter((e) => e.kind === 'file');
  const folders = state.entries.length - files.length;
  const bytes = files.reduce((sum, e) => sum + e.size, 0);
  let text = `${plural(folders, 'folder', 'folders')}, ${plural(files.length, 'file', 'files')} (${formatSize(bytes)})`;
  if (state.nextToken) {
    text += ` so far: ${plural(state.loaded, 'name', 'names')} loaded, more follow`;
  }
  if (state.filter) {
    text += `; ${plural(entries.length, 'entry matches', 'entries match')} the filter`;
  }
  return `${text}.`;
}

function row(entry) {
  if (entry.kind === 'folder') {
    return h(
      'tr',
      { class: 'folder' },
      h('td', { class: 'name' }, h('a', { href: hashOf(entry.path) }, h('span', { class: 'icon', 'aria-hidden': 'true' }, '▸ '), entry.name, '/', hidden(' (folder)'))),
      h('td', { class: 'num' }, `${plural(entry.count, 'file', 'files')}, ${formatSize(entry.size)}`),
      h('td', {}, entry.modified ? h('time', { datetime: new Date(entry.modified).toISOString() }, formatDate(entry.modified)) : ''),
      h('td', {}),
    );
  }
  const href = fileUrl(entry.path);
  return h(
    'tr',
    { class: 'file' },
    h('td', { class: 'name' }, h('a', { href, target: '_blank', rel: 'noopener', onclick: (event) => open(event, entry, false) }, entry.name)),
    h('td', { class: 'num' }, h('data', { value: entry.size }, formatSize(entry.size))),
    h('td', {}, h('time', { datetime: new Date(entry.modified).toISOString() }, formatDate(entry.modified))),
    h(
      'td',
      { class: 'actions' },
      h(
        'div',
        { class: 'action-buttons' },
        h('a', { class: 'button', href, download: entry.name, onclick: (event) => open(event, entry, true) }, 'Download', hidden(` ${entry.name}`)),
        h('button', { type: 'button', onclick: () => shareEntry(entry) }, 'Share', hidden(` ${entry.name}`)),
        h('button', { type: 'button', class: 'danger', onclick: (event) => remove(event, entry) }, 'Delete', hidden(` ${entry.name}`)),
      ),
    ),
  );
}

// Without anonymous reads a plain link would be refused (a link cannot carry the key), so the
// download or view goes through a signed link made for it; ranges and resume still come from the
// server, for as long as the link lives (one hour).
async function open(event, entry, download) {
  if (state.anonymousRead === true) {
    return;
  }
  event.preventDefault();
  await state.probe;
  let url = new URL(fileUrl(entry.path), document.baseURI).href;
  if (state.anonymousRead !== true) {
    try {
      url = (await createReadLink(entry.path)).url;
    } catch (error) {
      await handle(error, { action: 'download', name: entry.path }, () => open(event, entry, download));
      return;
    }
  }
  if (download) {
    h('a', { href: url, download: entry.name }).click();
  } else {
    window.open(url, '_blank', 'noopener');
  }
}

async function shareEntry(entry) {
  await share(entry.path, { onUnauthenticated: (message) => keyFor(message) });
}

async function remove(event, entry) {
  if (!(await confirmDelete(entry.path))) {
    return;
  }
  try {
    await deleteFile(entry.path, entry.eTag);
    forget(entry);
    notify(`Deleted “${entry.path}”.`);
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) {
      forget(entry);
    }
    await handle(error, { action: 'delete', name: entry.path }, () => remove(event, entry));
  }
}

// What this page deleted, and when (performance.now()): a listing asked for before the delete was
// answered (a live reload in flight) may still hold the file, and must not bring its row back. A
// listing asked for later is the truth, also for a file stored again since.
const deleted = new Map();
const deletedRemembered = 60_000;

function deletedSince(path, askedAt) {
  return (deleted.get(path) ?? -Infinity) > askedAt;
}

// By path, not by the object the row was drawn from: a reload while the confirmation was open (a
// change another client made) draws the list from new objects, and the deleted row must go all the same.
function forget(entry) {
  const now = performance.now();
  for (const [path, at] of deleted) {
    if (at < now - deletedRemembered) {
      deleted.delete(path);
    }
  }
  deleted.set(entry.path, now);
  const index = visibleEntries().findIndex((e) => e.path === entry.path);
  state.entries = state.entries.filter((e) => e.path !== entry.path);
  render();
  // Focus goes to the row that took the deleted one's place, else to the filter box.
  const next = byId('rows').children[Math.min(index, byId('rows').children.length - 1)];
  (next?.querySelector('a') || byId('filter')).focus();
}

/** Shows what went wrong; a 401 asks for a key and, once one is given, runs retry. */
export async function handle(error, context, retry) {
  const message = explain(error, context);
  showError(message, { forKey: error instanceof ApiError && error.status === 401 });
  if (error instanceof ApiError && error.status === 401 && (await replaceKey(message))) {
    await retry();
  }
}

/** Reloads the view when a file in the folder on screen changed (an upload finished here, or an event from the server). */
export function uploaded(path) {
  if (path.startsWith(state.folder)) {
    scheduleReload();
  }
}

let reloadTimer = null;
function scheduleReload() {
  clearTimeout(reloadTimer);
  reloadTimer = setTimeout(() => load(), 300);
}

function clamp(value, min, max) {
  return Math.min(max, Math.max(min, Math.floor(value)));
}
