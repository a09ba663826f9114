// The upload queue: files and folders dropped or chosen, each sent with the tus client (tus.js),
// three at a time, with progress, speed, time left, pause / resume / cancel, and the SHA-256 of the
// whole file compared with the stored file's once the last byte is in.

import { ApiError, digestFromHeader, storedDigest } from './api.js';
import { replaceKey } from './dialogs.js';
import { byId, h, hidden, replaceChildren } from './dom.js';
import { formatDate, formatDuration, formatSize, formatSpeed, plural } from './format.js';
import { mayWrite, writableFolders } from './grants.js';
import { explain } from './messages.js';
import { clearKeyError, notify, showError } from './notices.js';
import { Paused, TusUpload, terminate, uploadStore } from './tus.js';

const endpoint = 'api/uploads';
const parallel = 3;
// 8 MiB per PATCH: each is one checksummed piece the server verifies before appending it, and the
// most a dropped connection costs. ?chunkSize=N on the page's address changes it (tests use it).
const chunkSize = Number(new URLSearchParams(location.search).get('chunkSize')) || 8 * 1024 * 1024;

const queue = [];
let options = null;
let maxSize = null;

/** options: { folder: () => 'a/b/', uploaded: (path) => void } */
export function initUploads(init) {
  options = init;
  const files = byId('pick-files');
  const folder = byId('pick-folder');
  byId('choose-files').addEventListener('click', () => files.click());
  byId('choose-folder').addEventListener('click', () => folder.click());
  files.addEventListener('change', () => {
    add([...files.files].map((file) => ({ file, relativePath: file.name })));
    files.value = '';
  });
  folder.addEventListener('change', () => {
    add([...folder.files].map((file) => ({ file, relativePath: file.webkitRelativePath || file.name })));
    folder.value = '';
  });
  initDragAndDrop();
  renderUnfinished();
  window.addEventListener('storage', renderUnfinished);
  readLimits();
}

// Tus-Max-Size from OPTIONS (tus 1.0.0 "Tus-Max-Size"), only to say the limit in a 413's message.
async function readLimits() {
  try {
    const response = await fetch(endpoint, { method: 'OPTIONS', cache: 'no-store', credentials: 'omit' });
    const value = Number(response.headers.get('Tus-Max-Size'));
    maxSize = Number.isSafeInteger(value) && value > 0 ? value : null;
  } catch {
    maxSize = null;
  }
}

function initDragAndDrop() {
  const overlay = byId('drop-overlay');
  let depth = 0;
  const carriesFiles = (event) => event.dataTransfer && [...event.dataTransfer.types].includes('Files');
  document.addEventListener('dragenter', (event) => {
    if (carriesFiles(event)) {
      depth++;
      overlay.hidden = false;
    }
  });
  document.addEventListener('dragleave', () => {
    depth = Math.max(0, depth - 1);
    if (depth === 0) {
      overlay.hidden = true;
    }
  });
  document.addEventListener('dragover', (event) => {
    if (carriesFiles(event)) {
      event.preventDefault();
      event.dataTransfer.dropEffect = 'copy';
    }
  });
  document.addEventListener('drop', async (event) => {
    if (!carriesFiles(event)) {
      return;
    }
    event.preventDefault();
    depth = 0;
    overlay.hidden = true;
    // The entries must be taken while the event is being dispatched: the DataTransfer is emptied after.
    const entries = [...event.dataTransfer.items].filter((item) => item.kind === 'file').map((item) => item.webkitGetAsEntry?.() ?? null);
    const files = [...event.dataTransfer.files];
    const found = [];
    for (const [i, entry] of entries.entries()) {
      if (entry) {
        found.push(...(await walk(entry, '')));
      } else if (files[i]) {
        found.push({ file: files[i], relativePath: files[i].name });
      }
    }
    if (found.length === 0) {
      notify('Nothing to upload: empty folders are not stored (the server keeps files, and folders through their names).');
    }
    add(found);
  });
}

// A dropped folder, read through the File and Directory Entries API, depth first.
async function walk(entry, path) {
  if (entry.isFile) {
    const file = await new Promise((resolve, reject) => entry.file(resolve, reject));
    return [{ file, relativePath: `${path}${entry.name}` }];
  }
  if (!entry.isDirectory) {
    return [];
  }
  const reader = entry.createReader();
  const children = [];
  for (;;) {
    const batch = await new Promise((resolve, reject) => reader.readEntries(resolve, reject));
    if (batch.length === 0) {
      break;
    }
    children.push(...batch);
  }
  const found = [];
  for (const child of children) {
    found.push(...(await walk(child, `${path}${entry.name}/`)));
  }
  return found;
}

/** Queues files ({ file, relativePath }) for the folder on screen. */
export function add(files) {
  const folder = options.folder();
  if (files.length > 0 && !mayWrite(folder)) {
    // A drop where the key may not write: say where it may, send nothing.
    const where = writableFolders();
    notify(`Your API key may not upload into ${folder ? `“${folder}”` : 'the top folder'}${where ? `; it writes only in ${where}` : ''}.`);
    return;
  }
  for (const { file, relativePath } of files) {
    const target = `${folder}${relativePath}`;
    if (queue.some((item) => item.target === target && ['queued', 'uploading', 'paused', 'verifying'].includes(item.state))) {
      continue;
    }
    const item = { file, target, state: 'queued', sent: 0, samples: [], message: '' };
    item.view = view(item);
    queue.push(item);
    byId('uploads').append(item.view.row);
    update(item);
  }
  if (files.length > 0) {
    notify(`${plural(files.length, 'file', 'files')} added to the uploads.`);
  }
  renderUnfinished();
  pump();
}

function pump() {
  let running = queue.filter((item) => item.state === 'uploading' || item.state === 'verifying').length;
  for (const item of queue) {
    if (running >= parallel) {
      break;
    }
    if (item.state === 'queued') {
      running++;
      run(item);
    }
  }
}

async function run(item) {
  const slash = item.target.lastIndexOf('/');
  item.state = 'uploading';
  item.message = '';
  item.samples = [];
  item.upload = new TusUpload(item.file, {
    endpoint,
    target: item.target,
    chunkSize,
    metadata: {
      filename: item.target.slice(slash + 1),
      folder: slash > 0 ? item.target.slice(0, slash) : '',
    },
    // The REST upload's condition on the creation: never replace an existing file unless asked to
    // (a 412 FILE_EXISTS, checked at creation and again at the commit).
    createHeaders: byId('replace-existing').checked ? {} : { 'If-None-Match': '*' },
    onProgress: (sent) => progress(item, sent),
    onEvent: (event) => onEvent(item, event),
  });
  update(item);
  try {
    const result = await item.upload.start();
    item.state = 'verifying';
    item.sent = item.file.size;
    update(item);
    await verify(item, result);
  } catch (error) {
    if (error instanceof Paused) {
      if (item.state !== 'cancelled') {
        item.state = 'paused';
      }
    } else {
      item.state = 'failed';
      item.message = explain(error, { action: 'upload', name: item.target, limit: maxSize });
      showError(item.message, { forKey: error instanceof ApiError && error.status === 401 });
      update(item);
      if (error instanceof ApiError && error.status === 401 && (await replaceKey(item.message))) {
        retryFailed(item.message);
      }
    }
  }
  update(item);
  renderUnfinished();
  pump();
}

// The stored file must have the SHA-256 the page computed over the bytes it sent: the final
// PATCH's Repr-Digest when the server sends one, else the file's (HEAD api/files/...).
async function verify(item, result) {
  let stored = digestFromHeader(result.digestHeader);
  if (!stored) {
    try {
      stored = await storedDigest(item.target);
    } catch {
      stored = null;
    }
  }
  item.sha256 = result.sha256;
  // The key worked: an alert that said one was needed no longer holds.
  clearKeyError();
  if (stored === result.sha256) {
    item.state = 'done';
    item.message = `Uploaded; SHA-256 verified (${result.sha256.slice(0, 16)}…).`;
  } else if (stored === null) {
    item.state = 'done';
    item.message = 'Uploaded; every chunk was verified by the server, but the stored file’s digest could not be read to compare.';
  } else {
    item.state = 'failed';
    item.message = `The stored file’s SHA-256 (${stored.slice(0, 16)}…) differs from yours (${result.sha256.slice(0, 16)}…): it may have been replaced meanwhile. Upload it again.`;
    showError(item.message);
  }
  notify(`${item.target}: ${item.message}`);
  options.uploaded(item.target);
}

function retryFailed(reason) {
  for (const item of queue) {
    if (item.state === 'failed' && item.message === reason) {
      item.state = 'queued';
      item.message = '';
      update(item);
    }
  }
  pump();
}

function onEvent(item, event) {
  switch (event.type) {
    case 'resumed':
      item.resumedAt = event.offset;
      item.message = event.offset > 0 ? `Continued from ${formatSize(event.offset)} (${percent(event.offset, item.file.size)}) the server already had.` : '';
      break;
    case 'expired':
      item.message = 'The server no longer had the earlier part; starting again.';
      break;
    case 'retrying':
      item.message = `${explain(event.error, { action: 'upload', name: item.target })} Trying again in ${event.seconds} s.`;
      break;
    case 'rehashing':
      item.message = `Checking the part already sent (${percent(event.offset, item.file.size)})…`;
      break;
    default:
      return;
  }
  update(item);
}

function progress(item, sent) {
  const now = performance.now();
  item.sent = sent;
  item.samples.push({ t: now, sent });
  // Speed over the last five seconds.
  while (item.samples.length > 2 && now - item.samples[0].t > 5000) {
    item.samples.shift();
  }
  if (!item.pending) {
    item.pending = true;
    requestAnimationFrame(() => {
      item.pending = false;
      update(item);
    });
  }
}

function speedOf(item) {
  const first = item.samples[0];
  const last = item.samples.at(-1);
  if (!first || !last || last.t - first.t < 300) {
    return null;
  }
  return ((last.sent - first.sent) * 1000) / (last.t - first.t);
}

const stateLabels = {
  queued: 'Waiting',
  uploading: 'Uploading',
  paused: 'Paused',
  verifying: 'Verifying',
  done: 'Done',
  failed: 'Failed',
  cancelled: 'Cancelled',
};

function view(item) {
  const status = h('span', { class: 'upload-state' });
  const bar = h('progress', { max: Math.max(1, item.file.size), value: 0, 'aria-label': `Upload of ${item.target}` });
  const detail = h('p', { class: 'upload-detail' });
  const message = h('p', { class: 'upload-message' });
  const pause = h('button', { type: 'button', onclick: () => togglePause(item) }, 'Pause', hidden(` ${item.target}`));
  const cancel = h('button', { type: 'button', class: 'danger', onclick: () => cancelUpload(item) }, 'Cancel', hidden(` ${item.target}`));
  const retry = h('button', { type: 'button', onclick: () => retryOne(item) }, 'Try again', hidden(` ${item.target}`));
  const row = h(
    'li',
    { class: 'upload' },
    h('div', { class: 'upload-head' }, h('span', { class: 'upload-name' }, item.target), status),
    bar,
    detail,
    message,
    h('div', { class: 'upload-actions' }, pause, retry, cancel),
  );
  return { row, status, bar, detail, message, pause, cancel, retry };
}

function update(item) {
  const { row, status, bar, detail, message, pause, cancel, retry } = item.view;
  const size = item.file.size;
  row.dataset.state = item.state;
  status.textContent = stateLabels[item.state];
  bar.value = Math.min(item.sent, size);
  const parts = [`${formatSize(item.sent)} of ${formatSize(size)} (${percent(item.sent, size)})`];
  const speed = item.state === 'uploading' ? speedOf(item) : null;
  if (speed) {
    parts.push(formatSpeed(speed));
    parts.push(`about ${formatDuration((size - item.sent) / speed)} left`);
  }
  detail.textContent = parts.join(' · ');
  message.textContent = item.message;
  message.classList.toggle('error', item.state === 'failed');
  const active = ['queued', 'uploading', 'paused'].includes(item.state);
  pause.hidden = !['uploading', 'paused'].includes(item.state);
  pause.firstChild.textContent = item.state === 'paused' ? 'Resume' : 'Pause';
  cancel.hidden = !active;
  retry.hidden = item.state !== 'failed';
}

function togglePause(item) {
  if (item.state === 'uploading') {
    item.upload.pause();
  } else if (item.state === 'paused') {
    item.state = 'queued';
    update(item);
    pump();
  }
}

function retryOne(item) {
  item.state = 'queued';
  item.message = '';
  update(item);
  pump();
}

async function cancelUpload(item) {
  const wasRunning = item.state === 'uploading';
  item.state = 'cancelled';
  item.message = 'Cancelled; the server discards what it received.';
  update(item);
  try {
    if (item.upload) {
      await item.upload.cancel();
    } else {
      uploadStore.remove(uploadStore.key(item.target, item.file));
    }
  } catch (error) {
    item.message = `Cancelled here, but the server could not be told: ${explain(error, { action: 'upload', name: item.target })}`;
  }
  update(item);
  renderUnfinished();
  if (wasRunning) {
    pump();
  }
}

// Uploads remembered in localStorage that no row of this tab is sending: they continue when the
// same file is added again to the same folder, or can be discarded.
function renderUnfinished() {
  const active = new Set(queue.filter((item) => item.state !== 'cancelled' && item.state !== 'done').map((item) => uploadStore.key(item.target, item.file)));
  const now = Date.now();
  const entries = uploadStore.all().filter((entry) => {
    if (entry.expires && Date.parse(entry.expires) < now) {
      uploadStore.remove(entry.key);
      return false;
    }
    return !active.has(entry.key);
  });
  byId('unfinished').hidden = entries.length === 0;
  replaceChildren(
    byId('unfinished-list'),
    entries.map((entry) =>
      h(
        'li',
        { class: 'unfinished-entry' },
        h('span', { class: 'upload-name' }, entry.target),
        ` — ${formatSize(entry.offset)} of ${formatSize(entry.size)} (${percent(entry.offset, entry.size)}) sent`,
        entry.expires ? `; the server keeps it until ${formatDate(entry.expires)}` : '',
        ' ',
        h('button', { type: 'button', class: 'danger', onclick: () => discard(entry) }, 'Discard', hidden(` ${entry.target}`)),
      ),
    ),
  );
}

async function discard(entry) {
  uploadStore.remove(entry.key);
  renderUnfinished();
  try {
    await terminate(entry.url);
    notify(`Discarded the unfinished upload of “${entry.target}”.`);
  } catch (error) {
    showError(explain(error, { action: 'upload', name: entry.target }));
  }
}

function percent(part, whole) {
  return whole > 0 ? `${Math.floor((part / whole) * 100)}%` : '100%';
}
