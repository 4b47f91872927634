/**
 * The text of a file of Swagger UI (the swagger-ui-dist package) that the explorer page loads, by its name in the
 * package (the names lib/routes.json lists for /explorer/{file}). Run from source (npm run serve, the tests) it is
 * read from node_modules. The function bundles have no node_modules: when esbuild bundles a function,
 * scripts/deploy/bundle-plugins.js puts a module holding the files' text in place of this one, so the Lambda
 * serves them itself, and only the function that imports this module (the explorer) carries them.
 */
import { readFileSync } from 'node:fs';

export function explorerAsset(name: string): string {
  return readFileSync(require.resolve(`swagger-ui-dist/${name}`), 'utf8');
}
