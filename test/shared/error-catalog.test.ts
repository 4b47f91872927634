/**
 * The error catalog is the documented list of every error a client can get (DESIGN.md): every code thrown in lib
 * is in it, every entry is thrown somewhere, and docs/errors.md lists each with its status.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { errorCatalog } from '../../lib/error-catalog';

const root = path.resolve(__dirname, '..', '..');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    return statSync(file).isDirectory() ? sources(file) : file.endsWith('.ts') ? [file] : [];
  });
}

const thrown = new Set(
  sources(path.join(root, 'lib')).flatMap((file) =>
    // `new XError('code', ...)` at a throw, or an error class that fixes its code: `super(500, 'code', ...)`
    [...readFileSync(file, 'utf8').matchAll(/(?:new \w+Error|super)\(\s*(?:\d{3},\s*)?'([a-z_]+)'/g)].map(
      (m) => m[1] as string,
    ),
  ),
);
// classified from driver errors, or the fallback for unexpected ones: never thrown by name
const derived = new Set([
  'unique_violation',
  'foreign_key_violation',
  'database_unreachable',
  'database_error',
  'internal_error',
]);

it('every code thrown in lib is in the catalog', () => {
  const catalogued = new Set(errorCatalog.map((e) => e.code));
  expect([...thrown].filter((code) => !catalogued.has(code))).toEqual([]);
});

it('every catalogued code is thrown in lib or derived from a driver error', () => {
  expect(errorCatalog.map((e) => e.code).filter((code) => !thrown.has(code) && !derived.has(code))).toEqual([]);
});

it('docs/errors.md lists every code with its status, and no code the catalog does not have', () => {
  const page = readFileSync(path.join(root, 'docs', 'errors.md'), 'utf8');
  const missing = errorCatalog.filter((e) => !new RegExp(`\\|\\s*${e.status}\\s*\\|\\s*\`${e.code}\``).test(page));
  expect(missing.map((e) => e.code)).toEqual([]);
  const listed = [...page.matchAll(/^\|\s*\d{3}\s*\|\s*`([a-z_]+)`/gm)].map((m) => m[1]);
  const catalogued = new Set(errorCatalog.map((e) => e.code));
  expect(listed.filter((code) => !catalogued.has(code as string))).toEqual([]);
});
