// What a refusal means to a person, chosen by the problem's stable `reason` (docs/rest-api.md,
// "Errors"), then by the status when a reason is missing. Never "Upload failed" alone.

import { ApiError, NetworkError, apiKey } from './api.js';
import { formatSize } from './format.js';

const verbs = {
  list: 'list files',
  upload: 'upload',
  delete: 'delete files',
  share: 'create share links',
  download: 'download files',
};

/**
 * explain(error, { action: 'upload', name: 'photos/a.jpg', limit: 1048576 }) -> one sentence.
 * name is shown in quotes; the result is always set as text.
 */
export function explain(error, { action = 'list', name = '', limit = null } = {}) {
  const quoted = name ? `“${name}”` : 'the file';
  const verb = verbs[action] || action;
  if (error instanceof NetworkError) {
    return 'The server could not be reached. Check the connection and try again.';
  }
  if (!(error instanceof ApiError)) {
    return error?.message ? `Something went wrong: ${error.message}` : 'Something went wrong.';
  }

  switch (error.reason || byStatus[error.status]) {
    case 'UNAUTHENTICATED':
      return apiKey.get()
        ? 'The server refused the API key (unknown or mistyped). Enter a valid key.'
        : `This server needs an API key to ${verb}. Enter one to continue.`;
    case 'PERMISSION_DENIED':
      // The server's detail names the folder refused and the folders the key reaches.
      return error.detail
        ? `Your API key is not allowed to ${verb}${name ? ` (${quoted})` : ''}: ${error.detail}`
        : `Your API key is not allowed to ${verb}${name ? ` (${quoted})` : ''}: it lacks the scope for it. Ask for a key that has it.`;
    case 'QUOTA_EXCEEDED':
      return `${quoted} was not stored: ${error.detail || "the folder's quota is full."}`;
    case 'FILE_EXISTS':
      return `${quoted} already exists. Tick “Replace files that already exist” to overwrite it, or rename your file.`;
    case 'ETAG_MISMATCH':
      return `${quoted} changed on the server since this list was loaded, so it was left as it is. Reload the list and try again.`;
    case 'FILE_TOO_LARGE':
      return `${quoted} is too large for this server${limit ? ` (it accepts at most ${formatSize(limit)})` : ''}. Nothing was stored.`;
    case 'TOO_MANY_FILES':
      return 'Too many files in one request for this server.';
    case 'INVALID_FILE_NAME':
      return `The server refuses the name ${quoted}${error.detail ? `: ${error.detail}` : '.'}`;
    case 'NAME_CONFLICT':
      return `${quoted} clashes with a folder: a folder has that name, or a folder in its path is a file.`;
    case 'FILE_NOT_FOUND':
      return `${quoted} is no longer on the server.`;
    case 'DIGEST_MISMATCH':
    case 'CHECKSUM_MISMATCH':
      return `Part of ${quoted} arrived damaged (its SHA-256 did not match), so the server refused it.`;
    case 'STORAGE_FULL':
      return `The server's storage is full: ${quoted} was not stored.`;
    case 'STORAGE_UNAVAILABLE':
      return 'The server cannot reach its storage right now. Try again in a moment.';
    case 'RATE_LIMITED':
      return `Too many requests at once; try again${error.retryAfter ? ` in ${error.retryAfter} s` : ' shortly'}.`;
    case 'UPLOAD_EXPIRED':
      return `The server no longer keeps the unfinished upload of ${quoted}; it starts again from the beginning.`;
    case 'INVALID_LINK_REQUEST':
      return `The server refused to create this link${error.detail ? `: ${error.detail}` : '.'}`;
    case 'INVALID_PAGE_REQUEST':
      return 'The server refused the listing request; reload the page.';
    default:
      return `The server answered ${error.status}${error.title ? ` (${error.title})` : ''}${error.detail ? `: ${error.detail}` : '.'}`;
  }
}

// A refusal that came without a reason (a proxy, the framework, a tus status) still reads well.
const byStatus = {
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'FILE_NOT_FOUND',
  410: 'UPLOAD_EXPIRED',
  413: 'FILE_TOO_LARGE',
  429: 'RATE_LIMITED',
  460: 'CHECKSUM_MISMATCH',
  507: 'STORAGE_FULL',
};
