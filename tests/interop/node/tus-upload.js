#!/usr/bin/env node
// Uploads one file with tus-js-client (4.3.1, the client Uppy and most web pages use), resuming an
// earlier, interrupted upload of the same file from the URL it stored, as a real user's client does.
//
//   node tus-upload.js --endpoint URL --file PATH --name NAME [--key KEY] [--store FILE]
//                      [--chunk-size BYTES] [--die-after BYTES] [--protocol tus-v1|ietf-draft-05]
//
// --store is tus-js-client's FileUrlStorage: the upload URL is remembered there under the file's
// fingerprint, so a second run of this program finds the upload and continues it (HEAD, then
// PATCH from the server's offset). --die-after kills this process (SIGKILL, no clean-up) as soon
// as the server has confirmed at least that many bytes: an interrupted client. With
// --protocol ietf-draft-05 the endpoint is the target itself (api/files/NAME).
// Prints one JSON line per event on stdout: {"event":"resuming","url"}, {"event":"started","offset"},
// {"event":"success","url","bytes"}, {"event":"error","message","status"}. Exit 0 on success, 1 on error.
'use strict';

const fs = require('node:fs');
const path = require('node:path');
const tus = require('tus-js-client');

function parse(argv) {
  const options = { chunkSize: 256 * 1024, protocol: 'tus-v1' };
  for (let i = 0; i < argv.length; i += 2) {
    const [flag, value] = [argv[i], argv[i + 1]];
    const name = { '--endpoint': 'endpoint', '--file': 'file', '--name': 'name', '--key': 'key', '--store': 'store',
      '--chunk-size': 'chunkSize', '--die-after': 'dieAfter', '--protocol': 'protocol' }[flag];
    if (!name || value === undefined) {
      console.error(`usage: see the comment at the top of ${path.basename(__filename)} (bad argument ${flag})`);
      process.exit(2);
    }
    options[name] = ['chunkSize', 'dieAfter'].includes(name) ? Number(value) : value;
  }
  return options;
}

function print(event) {
  process.stdout.write(JSON.stringify(event) + '\n');
}

async function main() {
  const options = parse(process.argv.slice(2));
  const slash = options.name.lastIndexOf('/');
  const upload = new tus.Upload(fs.createReadStream(options.file), {
    endpoint: options.endpoint,
    protocol: options.protocol,
    chunkSize: options.chunkSize,
    headers: options.key ? { Authorization: `Bearer ${options.key}` } : {},
    metadata: slash < 0 ? { filename: options.name } : { filename: options.name.slice(slash + 1), folder: options.name.slice(0, slash) },
    urlStorage: options.store ? new tus.FileUrlStorage(options.store) : undefined,
    storeFingerprintForResuming: Boolean(options.store),
    removeFingerprintOnSuccess: true,
    retryDelays: null,
    onChunkComplete(_chunk, accepted) {
      if (options.dieAfter !== undefined && accepted >= options.dieAfter) {
        print({ event: 'dying', accepted, url: upload.url });
        process.kill(process.pid, 'SIGKILL');
      }
    },
  });
  let started = false;
  upload.options.onProgress = (sent) => {
    if (!started) {
      started = true;
      print({ event: 'started', offset: upload._offset ?? sent });
    }
  };

  const previous = options.store ? await upload.findPreviousUploads() : [];
  if (previous.length > 0) {
    print({ event: 'resuming', url: previous[0].uploadUrl });
    upload.resumeFromPreviousUpload(previous[0]);
  }

  await new Promise((resolve, reject) => {
    upload.options.onSuccess = resolve;
    upload.options.onError = reject;
    upload.start();
  });
  print({ event: 'success', url: upload.url, bytes: fs.statSync(options.file).size });
}

main().catch((error) => {
  print({ event: 'error', message: String(error.message || error), status: error.originalResponse ? error.originalResponse.getStatus() : null });
  process.exit(1);
});
