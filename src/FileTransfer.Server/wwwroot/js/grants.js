// What the caller may do, as the server describes it (GET api/caller): the page offers an upload
// only where the key may write. The server decides every request by the same policy regardless.

import { call } from './api.js';

let grants = null; // null: not known (the server is asked again when the key changes)

export async function loadGrants() {
  try {
    grants = await (await call('api/caller')).json();
  } catch {
    grants = null;
  }
}

/** True when the caller may write files into folder ('' for the top, 'a/b/' below). */
export function mayWrite(folder) {
  // Not known, or no key yet: the upload goes, and the server's 401 asks for a key.
  if (!grants || grants.id === 'anonymous') {
    return true;
  }
  return grants.scopes.includes('write') && !grants.link
    && (grants.folders == null || grants.folders.some((granted) => folder.startsWith(granted)));
}

/** Where the caller may write, for a sentence: 'teams/a/, shared/'. */
export function writableFolders() {
  return grants?.folders?.join(', ') ?? '';
}
