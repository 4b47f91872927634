/**
 * `npm run generate` as a command, on an embedded PGlite: a usage message naming what is wrong for arguments it
 * cannot use (exit 2), a clear error for a database it cannot read or a table it does not have (exit 1), files
 * that exist left alone unless --force, --tables, and --schema for a schema other than the connection's own (its
 * tables qualified in the definitions, which validate).
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { readConfig } from '../../lib/config';
import { closeDatabases } from '../../lib/db/select-database';
import { validateDefinitions } from '../../lib/definitions/validate-definitions';
import { type TestDatabase, targets } from '../support/databases';
import { runGenerate } from './run-generate';

const pglite = targets().find((t) => t.name === 'pglite');
let db: TestDatabase;
let out = '';

beforeAll(async () => {
  db = await (pglite as NonNullable<typeof pglite>).create();
  for (const statement of [
    'create table language (language_id serial primary key, name text not null)',
    'create table film (film_id serial primary key, title text not null, language_id int not null references language)',
    'create schema shop',
    'create table shop.item (item_id serial primary key, label text not null)',
    'create schema empty',
  ]) {
    await db.exec(statement);
  }
}, 60_000);

beforeEach(() => {
  out = mkdtempSync(path.join(tmpdir(), 'rrs-generate-cli-'));
});

afterEach(() => rmSync(out, { recursive: true, force: true }));

afterAll(async () => {
  await closeDatabases();
  await db?.drop();
});

describe('arguments it cannot use: exit 2 with the usage, naming what is wrong', () => {
  it.each([
    [[], '--database is missing'],
    [['--database', 'postgres://x/y'], '--out is missing'],
    [
      ['--database', 'oracle://x/y', '--out', 'o'],
      'Database URL scheme "oracle:" is not supported; use postgres:// or mysql://',
    ],
    [['--database', 'postgres://x/y', '--out', 'o', '--tables', ' , '], '--tables names no table'],
    [['--database', 'postgres://x/y', '--out', 'o', '--colour'], "Unknown option '--colour'"],
    [['--database', 'postgres://x/y', '--out', 'o', 'extra'], 'Unexpected argument extra'],
  ])('%j', async (args, problem) => {
    const run = await runGenerate(args);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`${problem}`);
    expect(run.stderr).toContain('usage: npm run generate -- --database URL --out DIR');
  });
});

it('prints the usage for --help, and exits 0', async () => {
  const run = await runGenerate(['--help']);
  expect(run).toEqual({
    code: 0,
    stdout: expect.stringMatching(/^usage: npm run generate -- --database URL/),
    stderr: '',
  });
});

it('exits 1 with the reason when the database cannot be read', async () => {
  const run = await runGenerate(['--database', 'postgres://postgres@127.0.0.1:1/nowhere', '--out', out]);
  expect(run).toEqual({ code: 1, stdout: '', stderr: expect.stringContaining('ECONNREFUSED') });
  expect(readdirSync(out)).toEqual([]);
});

it('exits 1 naming a table the schema does not have, or a schema without tables', async () => {
  const missing = await runGenerate(['--database', db.url, '--out', out, '--tables', 'film,actor']);
  expect(missing.code).toBe(1);
  expect(missing.stderr).toBe('No table actor in schema public (its tables: film, language)\n');
  const empty = await runGenerate(['--database', db.url, '--out', out, '--schema', 'empty']);
  expect(empty.code).toBe(1);
  expect(empty.stderr).toMatch(/^No tables in schema empty of postgres:/);
});

it('writes only the tables --tables names, leaves existing files alone, and overwrites them with --force', async () => {
  const first = await runGenerate(['--database', db.url, '--out', out, '--tables', 'FILM']);
  expect(first.code).toBe(0);
  expect(readdirSync(out).sort()).toEqual(['Film.xml', 'privileges.properties']);
  writeFileSync(path.join(out, 'Film.xml'), 'edited by hand');
  const again = await runGenerate(['--database', db.url, '--out', out, '--tables', 'film,language']);
  expect(again.stdout.split('\n')).toEqual([
    expect.stringMatching(/^Read 2 tables of schema public on postgres:\/\//),
    `skipped ${path.join(out, 'Film.xml')} (it exists; --force overwrites it)`,
    `wrote   ${path.join(out, 'Language.xml')}`,
    `wrote   ${path.join(out, 'LanguageFilms.xml')}`,
    `skipped ${path.join(out, 'privileges.properties')} (it exists; --force overwrites it)`,
    `Wrote 2 of 4 files to ${out}`,
    '',
  ]);
  expect(readFileSync(path.join(out, 'Film.xml'), 'utf8')).toBe('edited by hand');
  const forced = await runGenerate(['--database', db.url, '--out', out, '--force']);
  expect(forced.stdout).toContain(`Wrote 4 of 4 files to ${out}`);
  expect(readFileSync(path.join(out, 'Film.xml'), 'utf8')).toContain('<table name="film" role="Parent"');
});

it('qualifies the tables of a schema other than the connection’s own, and they validate', async () => {
  const run = await runGenerate(['--database', db.url, '--out', out, '--schema', 'shop']);
  expect(run.code).toBe(0);
  const item = readFileSync(path.join(out, 'Item.xml'), 'utf8');
  expect(item).toContain('    from shop.item\n');
  expect(item).toContain('<table name="shop.item" role="Parent"');
  const results = await validateDefinitions(readConfig({ DATABASE_URL: db.url, DEFINITIONS_DIR: out }));
  expect(results.map((r) => [r.name, r.status])).toEqual([['Item', 'ok']]);
});
