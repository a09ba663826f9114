// A small tus 1.0.0 client (https://tus.io/protocols/resumable-upload): creation, HEAD/PATCH with
// checksums (Upload-Checksum: sha256, from WebCrypto), termination. Written here rather than taken
// from tus-js-client so that the page needs no package install and no bundler: see docs/web.md.
//
// The state of an unfinished upload (its URL, the offset the server confirmed, the whole-file digest
// so far) is kept in localStorage under the file's fingerprint and target, so that after a reload or
// a dropped connection the same file continues from the server's offset (asked for with HEAD).

import { ApiError, NetworkError, authHeaders, problemOf } from './api.js';
import { Sha256 } from './sha256.js';

const tusVersion = '1.0.0';
const storePrefix = 'filetransfer.upload:';

// Waits before retrying a chunk after a network error, 409, 423, 429, 460 or 5xx; reset by every
// chunk that arrives.
const retryDelays = [1000, 2000, 4000, 8000, 15000, 30000];
const retryable = new Set([409, 423, 429, 460, 500, 502, 503, 504]);

/** The unfinished uploads this browser remembers (for every tab and across reloads). */
export const uploadStore = {
  key: (target, file) => `${storePrefix}${JSON.stringify([target, file.size, file.lastModified])}`,
  get(key) {
    try {
      return JSON.parse(localStorage.getItem(key));
    } catch {
      return null;
    }
  },
  set(key, value) {
    try {
      localStorage.setItem(key, JSON.stringify(value));
    } catch {
      // Storage full or disabled: the upload still runs, it just cannot continue after a reload.
    }
  },
  remove: (key) => localStorage.removeItem(key),
  /** [{ key, url, target, size, offset, expires }] for every remembered upload. */
  all() {
    const entries = [];
    for (let i = 0; i < localStorage.length; i++) {
      const key = localStorage.key(i);
      if (key?.startsWith(storePrefix)) {
        const value = uploadStore.get(key);
        if (value?.url) {
          entries.push({ key, ...value });
        }
      }
    }
    return entries;
  },
};

export class Paused extends Error {
  constructor() {
    super('Paused');
    this.name = 'Paused';
  }
}

/**
 * new TusUpload(file, { endpoint: 'api/uploads', target: 'a/b.txt', metadata: {filename, folder},
 *   createHeaders: {'If-None-Match': '*'}, chunkSize, onProgress(sent), onEvent({type, ...}) }).start() resolves with
 * { url, sha256, digestHeader } once the server holds every byte.
 */
export class TusUpload {
  #xhr = null;
  #paused = false;
  #hash = null;

  constructor(file, options) {
    this.file = file;
    this.endpoint = options.endpoint;
    this.target = options.target;
    this.metadata = options.metadata;
    this.headers = options.headers || {};
    this.createHeaders = options.createHeaders || {};
    this.chunkSize = Math.max(64, Math.floor(options.chunkSize / 64) * 64);
    this.onProgress = options.onProgress || (() => {});
    this.onEvent = options.onEvent || (() => {});
    this.storeKey = uploadStore.key(this.target, file);
    this.url = null;
    this.offset = 0;
  }

  /** Runs (or continues) the upload; retries what can be retried; throws Paused after pause(). */
  async start() {
    this.#paused = false;
    let failures = 0;
    for (;;) {
      try {
        return await this.#run(() => {
          failures = 0;
        });
      } catch (error) {
        if (this.#paused || error.name === 'AbortError') {
          throw new Paused();
        }
        const canRetry = error instanceof NetworkError || (error instanceof ApiError && retryable.has(error.status));
        if (!canRetry || failures >= retryDelays.length) {
          throw error;
        }
        const wait = error.retryAfter ? error.retryAfter * 1000 : retryDelays[failures];
        failures++;
        this.onEvent({ type: 'retrying', error, seconds: Math.ceil(wait / 1000) });
        await this.#sleep(wait);
      }
    }
  }

  /** Stops sending; the server keeps what it confirmed, start() continues from there. */
  pause() {
    this.#paused = true;
    this.#xhr?.abort();
    this.#wake?.();
  }

  /** Stops and asks the server to forget the upload (tus termination), and forgets it here. */
  async cancel() {
    this.pause();
    uploadStore.remove(this.storeKey);
    if (this.url) {
      await terminate(this.url, this.headers);
    }
  }

  async #run(onChunk) {
    const stored = uploadStore.get(this.storeKey);
    this.url = stored?.url || null;
    if (this.url) {
      const state = await this.#head(this.url);
      if (state === null) {
        // Expired, terminated or unknown to the server: start again.
        uploadStore.remove(this.storeKey);
        this.url = null;
        this.onEvent({ type: 'expired' });
      } else {
        this.offset = state.offset;
        this.#hash = await this.#restoreHash(stored.hash, this.offset);
        this.onEvent({ type: 'resumed', offset: this.offset, expires: state.expires });
      }
    }
    if (!this.url) {
      const created = await this.#create();
      this.url = created.url;
      this.offset = 0;
      this.#hash = new Sha256();
      this.#save(created.expires);
      this.onEvent({ type: 'created', url: this.url });
    }
    this.onProgress(this.offset);

    let digestHeader = null;
    while (this.offset < this.file.size) {
      if (this.#paused) {
        throw new Paused();
      }
      const end = Math.min(this.offset + this.chunkSize, this.file.size);
      const bytes = new Uint8Array(await this.file.slice(this.offset, end).arrayBuffer());
      const checksum = await sha256Base64(bytes);
      const answer = await this.#patch(this.offset, bytes, checksum);
      const taken = answer.offset - this.offset;
      if (taken < 0 || taken > bytes.length) {
        throw new Error(`The server confirmed offset ${answer.offset} after a chunk sent at ${this.offset}.`);
      }
      this.#hash.update(bytes.subarray(0, taken));
      this.offset = answer.offset;
      digestHeader = answer.digest;
      this.#save();
      this.onProgress(this.offset);
      onChunk();
    }
    uploadStore.remove(this.storeKey);
    return { url: this.url, sha256: this.#hash.hex(), digestHeader };
  }

  #save(expires) {
    const previous = uploadStore.get(this.storeKey);
    uploadStore.set(this.storeKey, {
      url: this.url,
      target: this.target,
      name: this.file.name,
      size: this.file.size,
      offset: this.offset,
      hash: this.#hash.save(),
      expires: expires ?? previous?.expires ?? null,
      savedAt: new Date().toISOString(),
    });
  }

  // The digest of the bytes before offset: the saved state when it ends exactly there, else read
  // again from the file (from the saved state when it is behind, from the start otherwise).
  async #restoreHash(saved, offset) {
    let hash = Sha256.restore(saved);
    if (!hash || hash.length > offset) {
      hash = new Sha256();
    }
    for (let at = hash.length; at < offset; ) {
      const end = Math.min(at + this.chunkSize, offset);
      hash.update(new Uint8Array(await this.file.slice(at, end).arrayBuffer()));
      this.onEvent({ type: 'rehashing', offset: end });
      at = end;
    }
    return hash;
  }

  async #create() {
    const response = await tusFetch(this.endpoint, {
      method: 'POST',
      headers: {
        ...this.headers,
        ...this.createHeaders,
        'Upload-Length': String(this.file.size),
        'Upload-Metadata': encodeMetadata(this.metadata),
      },
    });
    const location = response.headers.get('Location');
    if (!location) {
      throw new Error('The server created the upload without a Location.');
    }
    return { url: uploadUrl(location, new URL(this.endpoint, document.baseURI)), expires: response.headers.get('Upload-Expires') };
  }

  /** { offset, expires } of an upload the server still has, or null when it has not for this key. */
  async #head(url) {
    try {
      const response = await tusFetch(url, { method: 'HEAD', headers: this.headers });
      const offset = Number(response.headers.get('Upload-Offset'));
      if (!Number.isSafeInteger(offset) || offset < 0) {
        throw new Error('The server answered HEAD without a valid Upload-Offset.');
      }
      return { offset, expires: response.headers.get('Upload-Expires') };
    } catch (error) {
      // Gone (404, 410), or another key's (403: the key changed since): a new upload is made.
      if (error instanceof ApiError && (error.status === 403 || error.status === 404 || error.status === 410)) {
        return null;
      }
      throw error;
    }
  }

  #patch(offset, bytes, checksum) {
    return new Promise((resolve, reject) => {
      const xhr = new XMLHttpRequest();
      this.#xhr = xhr;
      xhr.open('PATCH', this.url);
      const headers = authHeaders({
        ...this.headers,
        'Tus-Resumable': tusVersion,
        'Upload-Offset': String(offset),
        'Upload-Checksum': `sha256 ${checksum}`,
        'Content-Type': 'application/offset+octet-stream',
      });
      for (const [name, value] of Object.entries(headers)) {
        xhr.setRequestHeader(name, value);
      }
      xhr.upload.onprogress = (event) => this.onProgress(offset + event.loaded);
      xhr.onload = () => {
        this.#xhr = null;
        if (xhr.status === 204 || xhr.status === 200) {
          resolve({ offset: Number(xhr.getResponseHeader('Upload-Offset')), digest: xhr.getResponseHeader('Repr-Digest') });
        } else {
          reject(errorFromXhr(xhr));
        }
      };
      xhr.onerror = () => {
        this.#xhr = null;
        reject(new NetworkError(new Error('PATCH failed')));
      };
      xhr.onabort = () => {
        this.#xhr = null;
        reject(new DOMException('Aborted', 'AbortError'));
      };
      xhr.send(bytes);
    });
  }

  #wake = null;

  #sleep(ms) {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      const online = () => done();
      window.addEventListener('online', online);
      function done() {
        clearTimeout(timer);
        window.removeEventListener('online', online);
        resolve();
      }
      this.#wake = done;
    });
  }
}

/** Forgets an upload on the server (tus termination); a 404 or 410 means it is gone already. */
export async function terminate(url, headers = {}) {
  try {
    await tusFetch(url, { method: 'DELETE', headers });
  } catch (error) {
    if (!(error instanceof ApiError && (error.status === 404 || error.status === 410))) {
      throw error;
    }
  }
}

async function tusFetch(url, { method, headers }) {
  let response;
  try {
    response = await fetch(url, {
      method,
      headers: authHeaders({ ...headers, 'Tus-Resumable': tusVersion }),
      cache: 'no-store',
      credentials: 'omit',
    });
  } catch (error) {
    throw new NetworkError(error);
  }
  if (!response.ok) {
    throw await ApiError.from(response);
  }
  return response;
}

function errorFromXhr(xhr) {
  const problem = problemOf(xhr.getResponseHeader('Content-Type'), xhr.responseText);
  return new ApiError(xhr.status, problem, new Headers({ 'Retry-After': xhr.getResponseHeader('Retry-After') || '' }));
}

/** tus Upload-Metadata: "key base64(utf-8 value)" pairs, comma separated; empty values left out. */
export function encodeMetadata(metadata) {
  return Object.entries(metadata)
    .filter(([, value]) => value !== null && value !== undefined && value !== '')
    .map(([key, value]) => `${key} ${base64(new TextEncoder().encode(String(value)))}`)
    .join(',');
}

function base64(bytes) {
  let text = '';
  for (let i = 0; i < bytes.length; i += 0x8000) {
    text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(text);
}

async function sha256Base64(bytes) {
  if (globalThis.crypto?.subtle) {
    return base64(new Uint8Array(await crypto.subtle.digest('SHA-256', bytes)));
  }
  // WebCrypto exists only in secure contexts (https, localhost): over plain http from another
  // host the chunk's digest comes from the page's own SHA-256, with the same result.
  const hex = new Sha256().update(bytes).hex();
  return base64(Uint8Array.from(hex.match(/../g), (pair) => parseInt(pair, 16)));
}

/**
 * The upload's URL from the creation's Location, relative to the page: behind a proxy that strips
 * a path prefix the server's Location is from its own root, so what follows "api/uploads/" is
 * rebased onto the page's folder.
 */
export function uploadUrl(location, requestUrl) {
  const url = new URL(location, requestUrl);
  const base = new URL('.', document.baseURI);
  if (url.origin !== base.origin || url.pathname.startsWith(base.pathname)) {
    return url.href;
  }
  const at = url.pathname.indexOf('/api/uploads/');
  return at < 0 ? url.href : new URL(url.pathname.slice(at + 1) + url.search, base).href;
}
