/**
 * The esbuild plugins of the function bundles (serverless.yml's custom.esbuild.plugins). One: the explorer's
 * Swagger UI files, read from node_modules at build time and bundled as text in place of
 * lib/http/explorer-asset.ts (which reads them from node_modules when the service runs from source). A Lambda
 * package has no node_modules, so the explorer function serves the files from its own bundle; no other function
 * imports that module, so no other bundle grows. The files are those lib/routes.json lists for /explorer/{file}.
 */
const { readFileSync } = require('node:fs');
const table = require('../../lib/routes.json');

const assetModule = /[\\/]lib[\\/]http[\\/]explorer-asset\.ts$/;

/** The names of the files the explorer serves, as the route table lists them. */
function assetNames() {
  const row = table.find((r) => r.route === 'GET /explorer/{file}');
  if (!row) throw new Error('lib/routes.json has no route GET /explorer/{file}');
  return row.values.file;
}

/** The module that holds each file's text: what lib/http/explorer-asset.ts exports, without reading files. */
function assetSource() {
  const texts = assetNames().map((name) => [name, readFileSync(require.resolve(`swagger-ui-dist/${name}`), 'utf8')]);
  return [
    `const texts = new Map(${JSON.stringify(texts)});`,
    'export function explorerAsset(name) { return texts.get(name); }',
  ].join('\n');
}

const explorerAssets = {
  name: 'explorer-assets',
  setup(build) {
    build.onLoad({ filter: assetModule }, () => ({ contents: assetSource(), loader: 'js' }));
  },
};

module.exports = [explorerAssets];
