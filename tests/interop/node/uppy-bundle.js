// Bundles Uppy (@uppy/core + @uppy/tus, ES modules with CommonJS dependencies such as lodash) into
// one classic script for a browser page, so the CORS test's page on another origin needs no
// module loader: window.Uppy and window.UppyTus. Usage: node uppy-bundle.js OUTFILE
'use strict';
const path = require('node:path');
const esbuild = require('esbuild');

const outfile = process.argv[2];
if (!outfile) {
  console.error('usage: node uppy-bundle.js OUTFILE');
  process.exit(2);
}

esbuild.build({
  stdin: {
    contents: "import Uppy from '@uppy/core'; import Tus from '@uppy/tus'; window.Uppy = Uppy; window.UppyTus = Tus;",
    resolveDir: __dirname,
    sourcefile: 'uppy-entry.js',
  },
  bundle: true,
  format: 'iife',
  platform: 'browser',
  outfile: path.resolve(outfile),
  logLevel: 'warning',
}).catch((error) => {
  console.error(error.message);
  process.exit(1);
});
