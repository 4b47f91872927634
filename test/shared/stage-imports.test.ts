/**
 * The pipeline runs one way, and its imports say so: each stage imports only the shared base (lib/*.ts) and
 * the stages before it that it works with; lib/db imports no stage at all. The edges that wire the stages
 * together (lib/http, lib/pipeline.ts) and the describers (lib/openapi, lib/xsd) are not checked here.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

const lib = path.resolve(__dirname, '..', '..', 'lib');

/** What each stage may import, besides itself and the shared base. */
const allowed: Readonly<Record<string, readonly string[]>> = {
  base: [],
  auth: [],
  request: [],
  definitions: ['db'],
  // a plan binds the caller's claims, found in the token as sign-in finds its roles (auth/find-claim)
  plan: ['request', 'auth'],
  execute: ['plan', 'sql', 'db'],
  sql: ['plan'],
  db: [],
  serial: [],
  // change events: built from a write's recorded rows in the JSON representation's values, kept in an outbox table;
  // the drain finds the databases with events in the definitions
  events: ['execute', 'serial', 'sql', 'db', 'definitions'],
};

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    return statSync(file).isDirectory() ? sources(file) : file.endsWith('.ts') ? [file] : [];
  });
}

/** `base` for the shared files directly in lib/ (resource, values, errors, config, text, ...). */
function stageOf(file: string): string {
  const [first, ...rest] = path.relative(lib, file).split(path.sep);
  if (rest.length === 0) return first === 'pipeline.ts' ? 'pipeline' : 'base';
  return first as string;
}

/** Every module a file imports, statically, dynamically or with require, resolved inside lib. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specifiers = [...text.matchAll(/(?:from\s+|import\(\s*|require\(\s*)'(\.{1,2}\/[^']+)'/g)].map((m) => m[1]);
  return specifiers.map((spec) => path.resolve(path.dirname(file), spec as string));
}

const checked = sources(lib).filter((file) => stageOf(file) in allowed);

it('finds the stages to check', () => {
  expect(new Set(checked.map(stageOf))).toEqual(new Set(Object.keys(allowed)));
});

it.each(checked.map((file) => [path.relative(lib, file), file] as const))(
  '%s imports only its own stage, the shared base and the stages it may use',
  (_name, file) => {
    const stage = stageOf(file);
    const outside = importsOf(file)
      .map((target) => ({ target: path.relative(lib, target), stage: stageOf(`${target}.ts`) }))
      .filter((i) => i.stage !== stage && i.stage !== 'base' && !allowed[stage]?.includes(i.stage));
    expect(outside).toEqual([]);
  },
);
