// Wires the page together: the key status in the header, the folder view, the uploads.

import { apiKey } from './api.js';
import { currentFolder, folderFromHash, initBrowser, load, probeAnonymousRead, uploaded } from './browser.js';
import { askForKey } from './dialogs.js';
import { byId } from './dom.js';
import { loadGrants } from './grants.js';
import { startLive } from './live.js';
import { initNotices, notify } from './notices.js';
import { initUploads } from './uploads.js';

function renderKey() {
  const key = apiKey.get();
  byId('key-state').textContent = key ? 'API key in use (this tab only)' : 'No API key';
  byId('key-set').textContent = key ? 'Change key' : 'Enter API key';
  byId('key-forget').hidden = !key;
}

document.addEventListener('keychange', async () => {
  renderKey();
  if (apiKey.get()) {
    probeAnonymousRead();
    await loadGrants();
    load();
  }
});

byId('key-set').addEventListener('click', async () => {
  if (await askForKey('Enter the API key for this server.')) {
    document.dispatchEvent(new Event('keychange'));
    notify('API key saved for this tab.');
  }
});

byId('key-forget').addEventListener('click', () => {
  apiKey.clear();
  renderKey();
  notify('API key forgotten.');
  byId('key-set').focus();
  loadGrants().then(() => load());
  live();
});

// The listing follows the server's events for the folder on screen. On a hash change this listener
// runs before the folder view's own (registered in initBrowser, later), so it reads the folder from
// the address, not from the view, which still holds the folder being left.
const live = () => startLive(folderFromHash(), uploaded);
window.addEventListener('hashchange', live);
document.addEventListener('keychange', live);

initNotices();
initBrowser();
initUploads({ folder: currentFolder, uploaded });
renderKey();
probeAnonymousRead();
await loadGrants();
load();
live();
