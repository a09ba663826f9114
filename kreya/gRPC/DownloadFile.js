// Reassembles the DownloadFile stream into a file. The first message is `metadata` (name, size,
// SHA-256, ETag); every later one is a `chunk`, whose bytes Kreya shows base64-encoded (the proto3
// JSON form of `bytes`). Each chunk is appended to the file as it arrives and hashed on the way,
// so no file has to fit in memory. When the call completes, the script checks the byte count and
// the SHA-256 against the metadata and previews the beginning of the file.
import { createHash } from 'crypto';
import { appendFile, mkdir, writeFile } from 'fs/promises';
import { tmpdir } from 'os';
import { join } from 'path';

const folder = join(tmpdir(), 'filetransfer-kreya');
const previewBytes = 4096;

const sha256 = createHash('sha256');
const head = [];
let headLength = 0;
let metadata = null;
let metadataMessages = 0;
let firstMessage = null;
let target = null;
let received = 0;

// One chain of writes keeps the appends in message order even if a callback runs before the
// previous append has finished.
let writes = Promise.resolve();

kreya.grpc.onResponse(msg => {
  const content = msg.content ?? {};
  firstMessage ??= content.metadata ? 'metadata' : 'chunk';
  if (content.metadata) {
    metadataMessages++;
    metadata = content.metadata;
    const file = join(folder, localName(metadata.fileName));
    target = file;
    writes = writes.then(async () => {
      await mkdir(folder, { recursive: true });
      await writeFile(file, new Uint8Array(0));
    });
    return;
  }

  const bytes = Buffer.from(content.chunk ?? '', 'base64');
  received += bytes.length;
  sha256.update(bytes);
  if (headLength < previewBytes) {
    const part = bytes.subarray(0, previewBytes - headLength);
    head.push(part);
    headLength += part.length;
  }

  if (target !== null) {
    const file = target;
    writes = writes.then(() => appendFile(file, bytes));
  }
});

kreya.grpc.onCallCompleted(async call => {
  await writes;
  kreya.test('Status is OK', () => check(call.status.code === 0, `The call ended with status ${call.status.code}.`));
  if (call.status.code !== 0) {
    return;
  }

  kreya.test('The first message is the only metadata message', () =>
    check(firstMessage === 'metadata' && metadataMessages === 1, `First message: ${firstMessage}; metadata messages: ${metadataMessages}.`));
  if (metadata === null) {
    return;
  }

  // int64 and bytes fields are strings in proto3 JSON, and a field at its default value may be left out.
  const size = Number(metadata.size ?? 0);
  const expected = Buffer.from(metadata.sha256 ?? '', 'base64').toString('hex');
  const actual = sha256.digest('hex');
  kreya.test('Every byte of the file arrived', () => check(received === size, `Received ${received} of ${size} bytes.`));
  if (expected) {
    kreya.test('SHA-256 matches the metadata', () => check(expected === actual, `Metadata: ${expected}; received bytes: ${actual}.`));
  } else {
    kreya.trace('The metadata carries no SHA-256 to compare with.');
  }

  kreya.trace(`Wrote ${received} bytes to ${target}; SHA-256 ${actual}`);
  await kreya.preview.html(previewPage(metadata.fileName, received, actual, Buffer.concat(head)), 'Downloaded file');
});

function check(condition, message) {
  if (!condition) {
    throw new Error(message);
  }
}

// The name comes from the server: only its last segment is used, so that no name can write
// outside the download folder.
function localName(name) {
  const last = String(name ?? '').replaceAll('\\', '/').split('/').pop();
  return last && last !== '.' && last !== '..' ? last : 'download.bin';
}

function previewPage(name, size, digest, bytes) {
  const text = bytes.includes(0) ? null : decodeUtf8(bytes);
  const body = text ?? [...bytes.subarray(0, 512)].map(b => b.toString(16).padStart(2, '0')).join(' ');
  const note = size > bytes.length ? ` (first ${bytes.length} bytes)` : '';
  return `<html><body style="font-family: sans-serif">
<p><b>${escapeHtml(name)}</b>: ${size} bytes, SHA-256 <code>${digest}</code>${note}</p>
<pre style="white-space: pre-wrap">${escapeHtml(body)}</pre>
</body></html>`;
}

// Not UTF-8 means binary: the preview then shows hex. `stream: true` leaves a character cut at the
// end of the preview undecoded instead of failing.
function decodeUtf8(bytes) {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes, { stream: true });
  } catch {
    return null;
  }
}

function escapeHtml(value) {
  return String(value).replace(/[&<>"]/g, c => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);
}
