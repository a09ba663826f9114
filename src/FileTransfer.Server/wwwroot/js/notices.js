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

/**
 * Shows what went wrong. `forKey` marks a refusal for want of a (valid) API key: it stops being
 * true once a request with a key succeeds, and clearKeyError() then takes it away.
 */
export function showError(text, { forKey = false } = {}) {
  byId('alert-text').textContent = text;
  byId('alert').dataset.forKey = forKey ? 'true' : '';
  byId('alert').hidden = false;
}

/** Hides the alert when it is about a missing or refused key: a request with a key has just succeeded. */
export function clearKeyError() {
  const alert = byId('alert');
  if (!alert.hidden && alert.dataset.forKey === 'true') {
    alert.hidden = true;
    byId('alert-text').textContent = '';
    alert.dataset.forKey = '';
  }
}

export function initNotices() {
  byId('alert-close').addEventListener('click', () => {
    byId('alert').hidden = true;
    byId('alert-text').textContent = '';
  });
}
