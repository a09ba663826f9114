// The three dialogs: the API key, a delete confirmation, a share link. Native <dialog> with
// showModal(): focus moves into it and stays there, Escape closes it, and focus returns to the
// button that opened it.

import { apiKey, createReadLink } from './api.js';
import { byId } from './dom.js';
import { formatDate } from './format.js';
import { explain } from './messages.js';

function open(dialog, initialFocus) {
  const opener = document.activeElement;
  dialog.returnValue = '';
  dialog.showModal();
  initialFocus?.focus();
  return new Promise((resolve) => {
    dialog.addEventListener(
      'close',
      () => {
        if (opener instanceof HTMLElement && opener.isConnected) {
          opener.focus();
        }
        resolve(dialog.returnValue);
      },
      { once: true },
    );
  });
}

/** Asks for a key, saying why; resolves true once one is stored, false when the person cancels. */
export async function askForKey(reason) {
  const dialog = byId('key-dialog');
  if (dialog.open) {
    return false;
  }
  byId('key-reason').textContent = reason;
  const input = byId('key-input');
  input.value = '';
  const answer = await open(dialog, input);
  const key = input.value.trim();
  input.value = '';
  if (answer !== 'ok' || key === '') {
    return false;
  }
  apiKey.set(key);
  return true;
}

/**
 * After a 401: forgets the refused key, asks for another and tells the page the key changed;
 * resolves true once one is stored.
 */
export async function replaceKey(reason) {
  if (apiKey.get()) {
    apiKey.clear();
  }
  const given = await askForKey(reason);
  document.dispatchEvent(new Event('keychange'));
  return given;
}

/** Resolves true when the person confirms the delete; Cancel has the focus first. */
export async function confirmDelete(name) {
  byId('delete-name').textContent = name;
  return (await open(byId('delete-dialog'), byId('delete-cancel'))) === 'delete';
}

/** The share dialog for one file: pick an expiry, create the link, copy it. */
export async function share(path, { onUnauthenticated }) {
  const dialog = byId('share-dialog');
  const result = byId('share-result');
  const message = byId('share-message');
  const url = byId('share-url');
  byId('share-name').textContent = path;
  result.hidden = true;
  message.textContent = '';
  url.value = '';

  const create = async () => {
    message.textContent = 'Creating the link…';
    try {
      const link = await createReadLink(path, Number(byId('share-expiry').value));
      url.value = link.url;
      byId('share-expires').textContent = `Valid until ${formatDate(link.expiresAt)}.`;
      result.hidden = false;
      message.textContent = 'Link created.';
      url.focus();
      url.select();
    } catch (error) {
      message.textContent = explain(error, { action: 'share', name: path });
      if (error.status === 401 && (await onUnauthenticated(message.textContent))) {
        await create();
      }
    }
  };
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(url.value);
      message.textContent = 'Link copied to the clipboard.';
    } catch {
      // No clipboard access (plain http from another host, or denied): the link is selected instead.
      url.focus();
      url.select();
      message.textContent = 'Press Ctrl+C (⌘C) to copy the selected link.';
    }
  };
  const createButton = byId('share-create');
  const copyButton = byId('share-copy');
  createButton.addEventListener('click', create);
  copyButton.addEventListener('click', copy);
  await open(dialog, byId('share-expiry'));
  createButton.removeEventListener('click', create);
  copyButton.removeEventListener('click', copy);
}
