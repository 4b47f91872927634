/**
 * The engine registry and the engines' folders agree: every folder of lib/db/engines with an engine.json is one
 * record of the registry, named after its folder, and the deploy scripts (which read the folders, not the
 * registry) see the same engines in the same order, with the same labels and URL schemes.
 */
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { engineList, engineOfUrl } from '../../lib/db/engines/registry';

const enginesDir = path.resolve(__dirname, '..', '..', 'lib', 'db', 'engines');
const deploy = require('../../scripts/deploy/engine') as {
  engines: { name: string; label: string; schemes: string[]; driverPackages: string[] }[];
};

it('lists every engine folder, each record named after its folder', () => {
  const folders = readdirSync(enginesDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(path.join(enginesDir, entry.name, 'engine.json')))
    .map((entry) => entry.name);
  expect(engineList.map((engine) => engine.name).sort()).toEqual(folders.sort());
});

it('the deploy scripts see the same engines, in the same order', () => {
  expect(deploy.engines.map(({ name, label, schemes }) => ({ name, label, schemes }))).toEqual(
    engineList.map(({ name, label, schemes }) => ({ name, label, schemes: schemes.map((s) => `${s}:`) })),
  );
  for (const engine of deploy.engines) expect(engine.driverPackages.length).toBeGreaterThan(0);
});

it.each(engineList.flatMap((engine) => engine.schemes.map((scheme) => [scheme, engine.name])))(
  'a %s:// URL is of engine %s',
  (scheme, name) => {
    expect(engineOfUrl(`${scheme}://user@host/db`).name).toBe(name);
  },
);
