// Two live regions: a polite status line for what went well, an alert for what went wrong.

import { byId } from './dom.js';

export function notify(text) {
  const notice = byId('notice');
  // Emptied first so that the same sentence twice is announced twice.
  notice.textContent = '';
  requestAnimationFrame(() => {
    notice.textContent = text;
  });
}

export function showError(text) {
  byId('alert-text').textContent = text;
  byId('alert').hidden = false;
}

export function initNotices() {
  byId('alert-close').addEventListener('click', () => {
    byId('alert').hidden = true;
    byId('alert-text').textContent = '';
  });
}
