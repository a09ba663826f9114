#!/usr/bin/env node
// A FileTransfer FileService client on @grpc/grpc-js (pure JavaScript HTTP/2 stack).
//
// protos/filetransfer/v1/file_service.proto is loaded as it is with @grpc/proto-loader, using
// keepCase: true, so that fields keep their proto names (file_name, next_page_token) in requests,
// responses and in this program's JSON output, exactly as the Python client prints them.
//
//   node client.js [--address HOST:PORT] [--key KEY] [--timeout SECONDS] COMMAND ...
//     download NAME OUT [--offset N] [--limit N] [--if-match ETAG]
//     upload PATH NAME [--chunk BYTES] [--overwrite] [--no-sha256]
//     info NAME
//     list [PREFIX] [--page-size N]        (follows next_page_token to the last page)
//     delete NAME [--if-match ETAG]
//
// The address defaults to $FT_GRPC_ADDRESS, then localhost:5001 ("http://" and a trailing "/" are
// accepted); the key to $FT_API_KEY, sent as "authorization: Bearer KEY" (none if unset).
// Prints one JSON object on stdout. Exit codes: 0 success; 1 the call failed with a gRPC status
// (stdout: {"error": {code, status, message, reason, domain, metadata}}, the ErrorInfo decoded from
// grpc-status-details-bin); 2 bad usage; 3 the server broke the contract or a local file failed.
'use strict';

const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const { once } = require('node:events');
const { finished } = require('node:stream/promises');
const grpc = require('@grpc/grpc-js');
const protoLoader = require('@grpc/proto-loader');
const protobuf = require('protobufjs');

const PROTOS = path.resolve(__dirname, '..', '..', '..', 'protos');
const RPC_PROTOS = path.resolve(__dirname, '..', 'protos-rpc');
const ERROR_INFO_TYPE = 'type.googleapis.com/google.rpc.ErrorInfo';
const MAX_MESSAGE = 5 * 1024 * 1024; // chunks up to 4 MiB (the server's upper bound) plus framing

class UsageError extends Error {}
class ContractError extends Error {}

function loadService() {
  const definition = protoLoader.loadSync('filetransfer/v1/file_service.proto', {
    includeDirs: [PROTOS],
    keepCase: true,
    longs: String, // int64 as decimal strings: no precision lost above 2^53
    defaults: true,
    oneofs: true, // message.data names the member of `oneof data` that is set
  });
  return grpc.loadPackageDefinition(definition).filetransfer.v1.FileService;
}

// google.rpc.Status and ErrorInfo, for the grpc-status-details-bin trailer.
function loadStatusTypes() {
  const root = new protobuf.Root();
  // protobufjs ships google/protobuf/any.proto itself; google/rpc/* come from protos-rpc.
  root.resolvePath = (_origin, target) =>
    target.startsWith('google/protobuf/') ? target : path.join(RPC_PROTOS, target);
  root.loadSync(['google/rpc/status.proto', 'google/rpc/error_details.proto'], { keepCase: true });
  return { Status: root.lookupType('google.rpc.Status'), ErrorInfo: root.lookupType('google.rpc.ErrorInfo') };
}

// RFC 3339 as proto3's JSON mapping writes a Timestamp: 0, 3, 6 or 9 fractional digits.
function rfc3339(timestamp) {
  if (!timestamp) {
    return null;
  }
  const nanos = timestamp.nanos;
  const base = new Date(Number(timestamp.seconds) * 1000).toISOString().slice(0, 19);
  let fraction = '';
  if (nanos !== 0) {
    const digits = String(nanos).padStart(9, '0');
    fraction = '.' + (nanos % 1e6 === 0 ? digits.slice(0, 3) : nanos % 1e3 === 0 ? digits.slice(0, 6) : digits);
  }
  return `${base}${fraction}Z`;
}

function metadataJson(m) {
  return {
    file_name: m.file_name,
    content_type: m.content_type,
    size: Number(m.size),
    last_modified: rfc3339(m.last_modified),
    etag: m.etag,
    sha256: Buffer.from(m.sha256).toString('hex'),
  };
}

function errorJson(error, types) {
  const result = {
    code: error.code,
    status: grpc.status[error.code] ?? String(error.code),
    message: error.details,
    reason: null,
    domain: null,
    metadata: {},
  };
  const [details] = error.metadata?.get('grpc-status-details-bin') ?? [];
  if (details) {
    const status = types.Status.decode(details);
    if (status.code !== error.code) {
      throw new ContractError(`grpc-status ${error.code} but google.rpc.Status code ${status.code}`);
    }
    for (const detail of status.details) {
      if (detail.type_url === ERROR_INFO_TYPE) {
        const info = types.ErrorInfo.decode(detail.value);
        Object.assign(result, { reason: info.reason, domain: info.domain, metadata: { ...info.metadata } });
      }
    }
  }
  return result;
}

// The unary RPCs as promises.
function unary(client, method, request, call) {
  return new Promise((resolve, reject) =>
    client[method](request, call.metadata, call.options, (error, response) => (error ? reject(error) : resolve(response))));
}

async function download(client, args, call) {
  const stream = client.downloadFile(
    { file_name: args.name, offset: args.offset, limit: args.limit, if_match: args.ifMatch }, call.metadata, call.options);
  let metadata = null;
  let out = null;
  let position = 0;
  const chunkSizes = [];
  const digest = crypto.createHash('sha256');
  try {
    for await (const message of stream) {
      if (message.data === 'metadata') {
        if (position !== 0) {
          throw new ContractError(`metadata arrived as message ${position}, not first`);
        }
        metadata = message.metadata;
        // Opened only once the server has accepted the call: a refused call writes no file.
        out = fs.createWriteStream(args.out);
      } else if (message.data === 'chunk') {
        if (metadata === null) {
          throw new ContractError('a chunk arrived before the metadata');
        }
        digest.update(message.chunk);
        chunkSizes.push(message.chunk.length);
        if (!out.write(message.chunk)) {
          await once(out, 'drain'); // backpressure: read no further than the disk writes
        }
      } else {
        throw new ContractError(`message ${position} carries neither metadata nor chunk`);
      }
      position++;
    }
  } finally {
    if (out !== null) {
      out.end();
      await finished(out);
    }
  }
  if (metadata === null) {
    throw new ContractError('the stream ended without a metadata message');
  }
  const bytes = chunkSizes.reduce((sum, size) => sum + size, 0);
  return { metadata: metadataJson(metadata), chunk_sizes: chunkSizes, bytes, sha256: digest.digest('hex') };
}

async function upload(client, args, call) {
  const size = fs.statSync(args.path).size;
  let sha256 = Buffer.alloc(0);
  if (!args.noSha256) {
    const hash = crypto.createHash('sha256');
    for await (const piece of fs.createReadStream(args.path)) {
      hash.update(piece);
    }
    sha256 = hash.digest();
  }

  let stream;
  const response = new Promise((resolve, reject) => {
    stream = client.uploadFile(call.metadata, call.options, (error, result) => (error ? reject(error) : resolve(result)));
  });
  // Settles when the call ends either way: the server may refuse (e.g. ALREADY_EXISTS) while we send.
  let ended = false;
  const end = response.then(() => { ended = true; }, () => { ended = true; });
  const send = async (message) => {
    if (!stream.write(message)) {
      await Promise.race([once(stream, 'drain'), end]);
    }
  };

  await send({ metadata: { file_name: args.name, size, sha256, overwrite: args.overwrite } });
  for await (const chunk of fs.createReadStream(args.path, { highWaterMark: args.chunk })) {
    if (ended) {
      break;
    }
    await send({ chunk });
  }
  stream.end();
  const result = await response;
  return { metadata: metadataJson(result.metadata), bytes: size };
}

async function info(client, args, call) {
  return { metadata: metadataJson(await unary(client, 'getFileInfo', { file_name: args.name }, call)) };
}

async function list(client, args, call) {
  const request = { prefix: args.prefix, page_size: args.pageSize, page_token: '' };
  const files = [];
  const pages = [];
  for (;;) {
    const page = await unary(client, 'listFiles', request, call);
    files.push(...page.files.map(metadataJson));
    pages.push(page.files.length);
    if (page.next_page_token === '') {
      return { files, pages };
    }
    if (pages.length > 100000) {
      throw new ContractError('next_page_token never ends');
    }
    request.page_token = page.next_page_token;
  }
}

async function remove(client, args, call) {
  await unary(client, 'deleteFile', { file_name: args.name, if_match: args.ifMatch }, call);
  return { deleted: args.name };
}

const COMMANDS = {
  download: { run: download, positional: ['name', 'out'], options: { '--offset': 'offset', '--limit': 'limit', '--if-match': 'ifMatch' } },
  upload: { run: upload, positional: ['path', 'name'], options: { '--chunk': 'chunk' }, flags: { '--overwrite': 'overwrite', '--no-sha256': 'noSha256' } },
  info: { run: info, positional: ['name'] },
  list: { run: list, positional: ['prefix?'], options: { '--page-size': 'pageSize' } },
  delete: { run: remove, positional: ['name'], options: { '--if-match': 'ifMatch' } },
};

const INTEGERS = new Set(['offset', 'limit', 'chunk', 'pageSize', 'timeout']);

function parse(argv) {
  const args = {
    address: process.env.FT_GRPC_ADDRESS || 'localhost:5001',
    key: process.env.FT_API_KEY || '',
    timeout: 60,
    offset: 0, limit: 0, ifMatch: '', chunk: 32 * 1024, pageSize: 0, prefix: '', overwrite: false, noSha256: false,
  };
  const global = { '--address': 'address', '--key': 'key', '--timeout': 'timeout' };
  let command = null;
  const positional = [];
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i];
    const spec = command ? COMMANDS[command] : null;
    const option = global[word] ?? spec?.options?.[word];
    if (option) {
      if (i + 1 >= argv.length) {
        throw new UsageError(`${word} needs a value`);
      }
      const value = argv[++i];
      if (INTEGERS.has(option) && !/^-?\d+$/.test(value)) {
        throw new UsageError(`${word} takes an integer, not '${value}'`);
      }
      args[option] = INTEGERS.has(option) ? Number(value) : value;
    } else if (spec?.flags?.[word]) {
      args[spec.flags[word]] = true;
    } else if (word.startsWith('--')) {
      throw new UsageError(`unknown option ${word}`);
    } else if (command === null) {
      if (!COMMANDS[word]) {
        throw new UsageError(`unknown command '${word}' (download, upload, info, list, delete)`);
      }
      command = word;
    } else {
      positional.push(word);
    }
  }
  if (command === null) {
    throw new UsageError('a command is required: download, upload, info, list or delete');
  }
  const names = COMMANDS[command].positional;
  const required = names.filter((n) => !n.endsWith('?')).length;
  if (positional.length < required || positional.length > names.length) {
    throw new UsageError(`${command} takes ${names.join(' ')}`);
  }
  names.forEach((name, i) => {
    if (i < positional.length) {
      args[name.replace('?', '')] = positional[i];
    }
  });
  if (args.chunk < 1) {
    throw new UsageError('--chunk must be at least 1');
  }
  return { command, args };
}

function target(address) {
  return address.replace(/^(http:\/\/|dns:\/\/\/)/, '').replace(/\/+$/, '');
}

async function main(argv) {
  let parsed;
  try {
    parsed = parse(argv);
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`usage: ${error.message}\n`);
      return 2;
    }
    throw error;
  }
  const { command, args } = parsed;
  const Service = loadService();
  const types = loadStatusTypes();
  const client = new Service(target(args.address), grpc.credentials.createInsecure(), {
    'grpc.max_receive_message_length': MAX_MESSAGE,
    'grpc.max_send_message_length': MAX_MESSAGE,
  });
  const metadata = new grpc.Metadata();
  if (args.key) {
    metadata.add('authorization', `Bearer ${args.key}`);
  }
  const call = { metadata, options: { deadline: Date.now() + args.timeout * 1000 } };
  try {
    const result = await COMMANDS[command].run(client, args, call);
    process.stdout.write(JSON.stringify(result) + '\n');
    return 0;
  } catch (error) {
    if (error instanceof ContractError || !Number.isInteger(error.code) || typeof error.details !== 'string') {
      process.stderr.write(`error: ${error.message}\n`);
      return 3;
    }
    const failure = errorJson(error, types);
    process.stdout.write(JSON.stringify({ error: failure }) + '\n');
    process.stderr.write(`${failure.status} (${failure.code}): ${failure.message} [${failure.reason}]\n`);
    return 1;
  } finally {
    client.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => { process.exitCode = code; },
  (error) => { process.stderr.write(`error: ${error.stack ?? error}\n`); process.exitCode = 3; });
