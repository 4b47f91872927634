/**
 * `npm run validate` (issue 4): every deliberately broken definition in test/definitions-broken/ produces its own
 * message, on every database; the command prints one line per resource and exits non-zero when any failed.
 */
import { execFile } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { config } from '../../lib/config';
import { validateDefinitions } from '../../lib/definitions/validate-definitions';
import { targets } from '../support/databases';
import { useFixture } from '../support/fixture';
import { useService } from '../support/service';

const broken = path.resolve(__dirname, '..', 'definitions-broken');
const root = path.resolve(__dirname, '..', '..');

type Status = 'ok' | 'warning' | 'failed';
const expected: Record<string, [Status, RegExp]> = {
  BadColumn: ['failed', /BadColumn\.xml is invalid: its query fails on the database: .*no_such_column/],
  Fine: ['ok', /^flat, 2 fields$/],
  JoinWithoutChild: ['failed', /JoinWithoutChild\.xml is invalid: a Join table needs a Child table/],
  KeyNotSelected: [
    'warning',
    /^flat, 2 fields; serves reads, but the query does not select the primary key of item \(item_id\), so rows cannot be addressed by key \(only filtered writes\)$/,
  ],
  Lookup: ['ok', /^flat, 4 fields; team is looked up by player \(many-to-one\), read-only here$/],
  Malformed: ['failed', /Malformed\.xml is invalid: malformed XML at line 3, column \d+/],
  MissingTable: [
    'failed',
    /MissingTable\.xml is invalid: table no_such_table \(role ParentExtension\) does not exist in the database/,
  ],
  NoParent: ['failed', /NoParent\.xml is invalid: expected exactly one Parent table, found 0/],
  NoPrimaryKey: [
    'warning',
    /^flat, 2 fields; serves reads, but table loose has no primary key, so rows cannot be addressed by key/,
  ],
  NoQuery: ['failed', /NoQuery\.xml is invalid: the query element is missing or empty/],
  NotSelect: ['failed', /NotSelect\.xml is invalid: the query must be one SELECT statement/],
  UndeclaredTable: [
    'failed',
    /UndeclaredTable\.xml is invalid: column color comes from table item_ext, which is not declared in metadata/,
  ],
  UnknownLabel: [
    'failed',
    /UnknownLabel\.xml is invalid: validatedAttribute title matches no column label of the query/,
  ],
  UnknownRole: ['failed', /UnknownRole\.xml is invalid: table item has role "Boss"; expected one of Parent/],
  'nested.NoLink': [
    'warning',
    /^one-to-many, 2 fields; serves reads, but the query does not select the primary key of widget \(widget_id\), so widget rows cannot be written; table widget \(Child\) has no foreign key to item \(item_id\), and no columns named like that key, so the writes that need it are refused$/,
  ],
};
const count = (status: Status) => Object.values(expected).filter(([s]) => s === status).length;

describe.each(targets())('validate on $name', (target) => {
  const fx = useFixture(target);

  beforeAll(() => useService({ DATABASE_URL: fx.db.url, DEFINITIONS_DIR: broken }));

  it('names each broken file with its exact problem, warns about what cannot be written, and passes the good ones', async () => {
    const results = await validateDefinitions(config());
    expect(results.map((r) => r.name)).toEqual(Object.keys(expected).sort());
    for (const result of results) {
      const [status, detail] = expected[result.name] as [Status, RegExp];
      expect({ name: result.name, status: result.status }).toEqual({ name: result.name, status });
      expect(result.detail).toMatch(detail);
    }
  });

  const validate = async (args: string[]) => {
    const run = promisify(execFile)(path.join(root, 'node_modules', '.bin', 'tsx'), ['scripts/validate.ts', ...args], {
      cwd: root,
      env: { ...process.env, NODE_OPTIONS: '', DATABASE_URL: fx.db.url, DEFINITIONS_DIR: broken },
    });
    return (await run.then(
      () => undefined,
      (error: unknown) => error,
    )) as { code: number; stdout: string } | undefined;
  };

  it('the command prints a line per resource and exits 1 when any failed', async () => {
    const failure = await validate([]);
    expect(failure?.code).toBe(1);
    const lines = failure?.stdout.trim().split('\n') ?? [];
    expect(lines).toHaveLength(Object.keys(expected).length + 1);
    expect(lines.filter((l) => l.startsWith('OK  '))).toEqual([
      expect.stringMatching(/^OK {4}Fine +flat, 2 fields$/),
      expect.stringMatching(/^OK {4}Lookup +flat, 4 fields; team is looked up/),
    ]);
    expect(lines.filter((l) => l.startsWith('WARN'))).toHaveLength(count('warning'));
    const valid = count('ok') + count('warning');
    expect(lines.at(-1)).toBe(
      `${valid} of ${Object.keys(expected).length} definitions under ${broken} are valid (${count('warning')} with warnings)`,
    );
  });

  it('warnings alone pass, unless --strict', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'rrs-validate-'));
    for (const file of ['Fine.xml', 'NoPrimaryKey.xml']) copyFileSync(path.join(broken, file), path.join(dir, file));
    const env = { ...process.env, NODE_OPTIONS: '', DATABASE_URL: fx.db.url, DEFINITIONS_DIR: dir };
    const tsx = path.join(root, 'node_modules', '.bin', 'tsx');
    const plain = await promisify(execFile)(tsx, ['scripts/validate.ts'], { cwd: root, env });
    expect(plain.stdout).toMatch(/^WARN {2}NoPrimaryKey /m);
    expect(plain.stdout).toMatch(/^2 of 2 definitions under .* are valid \(1 with warnings\)$/m);
    const strict = await promisify(execFile)(tsx, ['scripts/validate.ts', '--strict'], { cwd: root, env }).then(
      () => undefined,
      (error: unknown) => error as { code: number; stdout: string },
    );
    expect(strict?.code).toBe(1);
    expect(strict?.stdout).toMatch(/\(1 with warnings, which --strict counts as failures\)$/m);
    rmSync(dir, { recursive: true });
  });
});
