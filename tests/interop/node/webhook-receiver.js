// A webhook receiver that verifies every request with the Standard Webhooks reference library
// (standardwebhooks on npm), run as a process by tests/FileTransfer.Server.Tests/Events.
//
//   node webhook-receiver.js whsec_...
//
// Listens on 127.0.0.1 (a free port), prints "listening PORT", then one JSON line per request:
// {"verified": true, "id": <webhook-id>, "event": <the body>} after answering 204, or
// {"verified": false, "error": "..."} after answering 401.
'use strict';

const http = require('node:http');
const { Webhook } = require('standardwebhooks');

const webhook = new Webhook(process.argv[2]);

const server = http.createServer((request, response) => {
  const chunks = [];
  request.on('data', (chunk) => chunks.push(chunk));
  request.on('end', () => {
    const body = Buffer.concat(chunks).toString('utf8');
    try {
      const event = webhook.verify(body, request.headers);
      response.writeHead(204).end();
      console.log(JSON.stringify({ verified: true, id: request.headers['webhook-id'], event }));
    } catch (error) {
      response.writeHead(401).end();
      console.log(JSON.stringify({ verified: false, error: String(error && error.message) }));
    }
  });
});

server.listen(0, '127.0.0.1', () => console.log(`listening ${server.address().port}`));
