/**
 * `npm run validate`: every definition in test/fixtures/definitions-broken/ (written against the demo bookstore) gives its
 * own verdict, on every database: FAIL with the file and the problem, WARN for what serves reads but refuses some
 * writes, OK otherwise. The command prints one line per resource and exits 1 when any failed, or with --strict
 * when any warned.
 */
import { execFile } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { config } from '../../lib/config';
import { closeDatabases } from '../../lib/db/select-database';
import { validateDefinitions } from '../../lib/definitions/validate-definitions';
import { seedDemo } from '../../scripts/demo/seed';
import { type TestDatabase, targets } from '../support/databases';
import { useService } from '../support/service';

const broken = path.resolve(__dirname, '..', 'fixtures', 'definitions-broken');
const root = path.resolve(__dirname, '..', '..');
const tsx = path.join(root, 'node_modules', '.bin', 'tsx');

type Status = 'ok' | 'warning' | 'failed';
const expected: Record<string, [Status, RegExp]> = {
  BadColumn: ['failed', /BadColumn\.xml is invalid: its query fails on the database: .*no_such_column/],
  Fine: ['ok', /^flat, 2 fields$/],
  JoinWithoutChild: ['failed', /JoinWithoutChild\.xml is invalid: a Join table needs a Child table/],
  KeyNotSelected: [
    'warning',
    /^flat, 2 fields; serves reads, but the query does not select the primary key of book \(book_id\), so rows cannot be addressed by key \(only filtered writes\)$/,
  ],
  Lookup: ['ok', /^flat, 4 fields; publisher is looked up by book \(many-to-one\), read-only here$/],
  Malformed: ['failed', /Malformed\.xml is invalid: malformed XML at line 3, column \d+/],
  MissingTable: [
    'failed',
    /MissingTable\.xml is invalid: table no_such_table \(role ParentExtension\) does not exist in the database/,
  ],
  NoParent: ['failed', /NoParent\.xml is invalid: expected exactly one Parent table, found 0/],
  NoQuery: ['failed', /NoQuery\.xml is invalid: the query element is missing or empty/],
  NotSelect: ['failed', /NotSelect\.xml is invalid: the query must be one SELECT statement/],
  UndeclaredTable: [
    'failed',
    /UndeclaredTable\.xml is invalid: column summary comes from table book_detail, which is not declared in metadata/,
  ],
  UnknownLabel: [
    'failed',
    /UnknownLabel\.xml is invalid: validatedAttribute title matches no column label of the query/,
  ],
  UnknownRole: ['failed', /UnknownRole\.xml is invalid: table book has role "Boss"; expected one of Parent/],
  'nested.NoLink': [
    'warning',
    /^one-to-many, 3 fields; serves reads, but table author \(Child\) has no foreign key to publisher \(publisher_id\), and no columns named like that key, so the writes that need it are refused$/,
  ],
};
const count = (status: Status) => Object.values(expected).filter(([s]) => s === status).length;

/** Runs `npm run validate` as a user would; resolves with its exit code and output, whatever the code. */
async function validate(env: Record<string, string>, args: string[] = []): Promise<{ code: number; stdout: string }> {
  const run = promisify(execFile)(tsx, ['scripts/validate.ts', ...args], {
    cwd: root,
    env: { ...process.env, NODE_OPTIONS: '', ...env },
  });
  return run.then(
    ({ stdout }) => ({ code: 0, stdout }),
    (error: { code: number; stdout: string }) => ({ code: error.code, stdout: error.stdout }),
  );
}

describe.each(targets())('validate on $name', (target) => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await target.create();
    await seedDemo((sql) => db.exec(sql), target.engine);
    await useService({ DATABASE_URL: db.url, DEFINITIONS_DIR: broken });
  });
  afterAll(async () => {
    await closeDatabases();
    await db?.drop();
  });

  it('names each broken file with its exact problem, warns about what cannot be written, and passes the good ones', async () => {
    const results = await validateDefinitions(config());
    expect(results.map((r) => r.name)).toEqual(Object.keys(expected).sort());
    for (const result of results) {
      const [status, detail] = expected[result.name] as [Status, RegExp];
      expect({ name: result.name, status: result.status }).toEqual({ name: result.name, status });
      expect(result.detail).toMatch(detail);
    }
  });

  it('the command prints a line per resource and exits 1 when any failed', async () => {
    const { code, stdout } = await validate({ DATABASE_URL: db.url, DEFINITIONS_DIR: broken });
    expect(code).toBe(1);
    const lines = stdout.trim().split('\n');
    expect(lines).toHaveLength(Object.keys(expected).length + 1);
    expect(lines.filter((l) => l.startsWith('OK  '))).toEqual([
      expect.stringMatching(/^OK {4}Fine +flat, 2 fields$/),
      expect.stringMatching(/^OK {4}Lookup +flat, 4 fields; publisher is looked up/),
    ]);
    expect(lines.filter((l) => l.startsWith('WARN'))).toHaveLength(count('warning'));
    const valid = count('ok') + count('warning');
    expect(lines.at(-1)).toBe(
      `${valid} of ${Object.keys(expected).length} definitions under ${broken} are valid (${count('warning')} with warnings)`,
    );
  });

  it('warnings alone pass, unless --strict; a table without a primary key warns', async () => {
    await db.exec('CREATE TABLE loose_note (word varchar(20), n int)');
    const dir = mkdtempSync(path.join(tmpdir(), 'rrs-validate-'));
    copyFileSync(path.join(broken, 'Fine.xml'), path.join(dir, 'Fine.xml'));
    writeFileSync(
      path.join(dir, 'NoPrimaryKey.xml'),
      '<sqlResource><query>select word, n from loose_note</query><metadata><table name="loose_note" role="Parent"/></metadata></sqlResource>',
    );
    const env = { DATABASE_URL: db.url, DEFINITIONS_DIR: dir };
    const plain = await validate(env);
    expect(plain.code).toBe(0);
    expect(plain.stdout).toMatch(
      /^WARN {2}NoPrimaryKey +flat, 2 fields; serves reads, but table loose_note has no primary key, so rows cannot be addressed by key \(only filtered writes\)$/m,
    );
    expect(plain.stdout).toMatch(/^2 of 2 definitions under .* are valid \(1 with warnings\)$/m);
    const strict = await validate(env, ['--strict']);
    expect(strict.code).toBe(1);
    expect(strict.stdout).toMatch(/\(1 with warnings, which --strict counts as failures\)$/m);
    rmSync(dir, { recursive: true });
  });
});
