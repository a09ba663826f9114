// Keeps the listing current: the page reads the server's events (GET api/events, Server-Sent
// Events) for the folder on screen and reloads the listing when a file in it is created, replaced
// or deleted, whoever did it (docs/web.md, "Live updates"). Read with fetch rather than EventSource,
// which cannot send the API key. A cut stream is reopened after the last event it delivered.

import { authHeaders } from './api.js';

let current = null;

/** Watches folder (and everything below it); changed(name) is told each file that changed. */
export function startLive(folder, changed) {
  current?.abort();
  const controller = new AbortController();
  current = controller;
  run(folder, changed, controller.signal);
}

async function run(folder, changed, signal) {
  let lastId = null;
  let delay = 1000;
  while (!signal.aborted) {
    try {
      const query = new URLSearchParams({ prefix: folder });
      if (lastId) {
        query.set('after', lastId);
      }
      const response = await fetch(`api/events?${query}`, {
        headers: authHeaders({ Accept: 'text/event-stream' }),
        cache: 'no-store',
        credentials: 'omit',
        signal,
      });
      if (response.status === 401 || response.status === 403) {
        return; // no key (or one that may not read): the next key change starts it again
      }
      if (response.ok && response.body) {
        delay = 1000;
        lastId = await read(response.body, changed, lastId);
      }
    } catch {
      if (signal.aborted) {
        return;
      }
    }
    await new Promise((resolve) => setTimeout(resolve, delay));
    delay = Math.min(delay * 2, 30000);
  }
}

// One frame per blank line (id:, event:, data: lines); returns the last id seen.
async function read(body, changed, lastId) {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) {
      return lastId;
    }
    buffer += value.replace(/\r\n?/g, '\n');
    let end;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const frame = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const data = frame.split('\n').filter((line) => line.startsWith('data:')).map((line) => line.slice(5).trimStart()).join('\n');
      const id = frame.split('\n').find((line) => line.startsWith('id:'));
      if (id) {
        lastId = id.slice(3).trim();
      }
      if (data) {
        const event = JSON.parse(data);
        if (event.type.startsWith('file.')) {
          changed(event.name);
        }
      }
    }
  }
}
