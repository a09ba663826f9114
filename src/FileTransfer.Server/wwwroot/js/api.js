// Everything the page asks of the server goes through here. URLs are relative to the page
// ("api/files", never "/api/files"), so the page works under any path prefix.

const keyName = 'filetransfer.apiKey';

/** The API key lives in sessionStorage: this tab only, gone when the tab closes; never in a URL. */
export const apiKey = {
  get: () => sessionStorage.getItem(keyName),
  set: (key) => sessionStorage.setItem(keyName, key),
  clear: () => sessionStorage.removeItem(keyName),
};

/**
 * Headers that carry the key, when there is one, and say the request is the page's
 * (FileTransfer-Client: web, so that the server's events name the web page as the protocol).
 */
export function authHeaders(headers = {}) {
  const key = apiKey.get();
  const page = { ...headers, 'FileTransfer-Client': 'web' };
  return key ? { ...page, Authorization: `Bearer ${key}` } : page;
}

/** "a b/c#d.txt" -> "api/files/a%20b/c%23d.txt": each segment escaped, '/' kept as the separator. */
export function fileUrl(path) {
  return `api/files/${encodePath(path)}`;
}

export function encodePath(path) {
  return path.split('/').map(encodeURIComponent).join('/');
}

/** A refusal from the server, with the problem's stable reason (docs/rest-api.md, "Errors"). */
export class ApiError extends Error {
  constructor(status, problem, headers) {
    super(problem?.detail || problem?.title || `HTTP ${status}`);
    this.name = 'ApiError';
    this.status = status;
    this.reason = typeof problem?.reason === 'string' ? problem.reason : null;
    this.title = typeof problem?.title === 'string' ? problem.title : null;
    this.detail = typeof problem?.detail === 'string' ? problem.detail : null;
    this.retryAfter = Number(headers?.get('Retry-After')) || null;
  }

  static async from(response) {
    const contentType = response.headers.get('Content-Type');
    const text = isJson(contentType) ? await response.text().catch(() => null) : null;
    return new ApiError(response.status, problemOf(contentType, text), response.headers);
  }
}

/** The problem details (RFC 9457) in a response's body, or null when it has none that parses. */
export function problemOf(contentType, text) {
  if (text === null || !isJson(contentType)) {
    return null;
  }
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

function isJson(contentType) {
  return (contentType || '').includes('json');
}

/** The server could not be reached (offline, connection dropped, server down). */
export class NetworkError extends Error {
  constructor(cause) {
    super('The server could not be reached.');
    this.name = 'NetworkError';
    this.cause = cause;
  }
}

/**
 * fetch with the key (unless anonymous: true), answering the Response when it is 2xx and throwing
 * ApiError otherwise.
 */
export async function call(url, { method = 'GET', headers = {}, body, anonymous = false, signal } = {}) {
  let response;
  try {
    response = await fetch(url, {
      method,
      headers: anonymous ? headers : authHeaders(headers),
      body,
      signal,
      cache: 'no-store',
      credentials: 'omit',
      redirect: 'error',
    });
  } catch (error) {
    throw error.name === 'AbortError' ? error : new NetworkError(error);
  }
  if (!response.ok) {
    throw await ApiError.from(response);
  }
  return response;
}

/**
 * One page of the listing: files whose name starts with prefix. The next page is asked for with
 * the token from the Link header's URL, rebuilt here relative to the page: behind a proxy that
 * strips a path prefix the server's Link is from its own root (docs/deployment.md), so it is not
 * followed as it is.
 */
export async function listPage(prefix, pageSize, pageToken, { anonymous = false } = {}) {
  const query = new URLSearchParams({ prefix, pageSize: String(pageSize) });
  if (pageToken) {
    query.set('pageToken', pageToken);
  }
  const response = await call(`api/files?${query}`, { anonymous });
  const files = await response.json();
  return { files, nextToken: nextPageToken(response.headers.get('Link')) };
}

function nextPageToken(link) {
  // RFC 8288: <uri-reference>; rel="next" (possibly among other links).
  for (const part of (link || '').split(/,(?=\s*<)/)) {
    const match = /^\s*<([^>]*)>(.*)$/.exec(part);
    if (match && /;\s*rel="?next"?/i.test(match[2])) {
      return new URL(match[1], document.baseURI).searchParams.get('pageToken');
    }
  }
  return null;
}

/** Deletes the version the listing showed: If-Match makes a file replaced since then a 412, not a loss. */
export async function deleteFile(path, eTag) {
  await call(fileUrl(path), { method: 'DELETE', headers: eTag ? { 'If-Match': eTag } : {} });
}

/**
 * A signed read link (POST api/links). The URL is built here from the token, relative to the page,
 * so it is the address the browser sees (scheme, host and prefix included), not the one the server
 * saw behind a proxy.
 */
export async function createReadLink(path, expiresInSeconds) {
  const body = { path, access: 'read' };
  if (expiresInSeconds) {
    body.expiresInSeconds = expiresInSeconds;
  }
  const response = await call('api/links', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  const link = await response.json();
  const url = new URL(`${fileUrl(path)}?sig=${encodeURIComponent(link.token)}`, document.baseURI);
  return { url: url.href, expiresAt: new Date(link.expiresAt) };
}

/** HEAD of a stored file: its SHA-256 from Repr-Digest (RFC 9530), as lowercase hex, or null. */
export async function storedDigest(path, { anonymous = false } = {}) {
  const response = await call(fileUrl(path), { method: 'HEAD', anonymous });
  return digestFromHeader(response.headers.get('Repr-Digest'));
}

/** "sha-256=:BASE64:" -> hex, or null when the field has no sha-256 member. */
export function digestFromHeader(value) {
  const match = /(?:^|,)\s*sha-256=:([A-Za-z0-9+/=]+):/.exec(value || '');
  if (!match) {
    return null;
  }
  return Array.from(atob(match[1]), (c) => c.charCodeAt(0).toString(16).padStart(2, '0')).join('');
}
