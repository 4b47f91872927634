/**
 * `npm run validate` (issue 4): every deliberately broken definition in test/definitions-broken/ produces its own
 * message, on every database; the command prints one line per resource and exits non-zero when any failed.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { config } from '../../lib/config';
import { validateDefinitions } from '../../lib/definitions/validate-definitions';
import { targets } from '../support/databases';
import { useFixture } from '../support/fixture';
import { useService } from '../support/service';

const broken = path.resolve(__dirname, '..', 'definitions-broken');
const root = path.resolve(__dirname, '..', '..');

const expected: Record<string, RegExp> = {
  BadColumn: /BadColumn\.xml is invalid: its query fails on the database: .*no_such_column/,
  Fine: /^flat, 2 fields$/,
  JoinWithoutChild: /JoinWithoutChild\.xml is invalid: a Join table needs a Child table/,
  KeyNotSelected: /KeyNotSelected\.xml is incomplete: the query does not select the primary key of item \(item_id\)/,
  Malformed: /Malformed\.xml is invalid: malformed XML at line 3, column \d+/,
  MissingTable:
    /MissingTable\.xml is invalid: table no_such_table \(role ParentExtension\) does not exist in the database/,
  NoParent: /NoParent\.xml is invalid: expected exactly one Parent table, found 0/,
  NoPrimaryKey: /NoPrimaryKey\.xml is incomplete: table loose has no primary key/,
  NoQuery: /NoQuery\.xml is invalid: the query element is missing or empty/,
  NotSelect: /NotSelect\.xml is invalid: the query must be one SELECT statement/,
  UndeclaredTable:
    /UndeclaredTable\.xml is invalid: column color comes from table item_ext, which is not declared in metadata/,
  UnknownLabel: /UnknownLabel\.xml is invalid: validatedAttribute title matches no column label of the query/,
  UnknownRole: /UnknownRole\.xml is invalid: table item has role "Boss"; expected one of Parent/,
  'nested.NoLink':
    /NoLink\.xml is invalid: table widget \(Child\) has no foreign key to item and no columns named like its key/,
};

describe.each(targets())('validate on $name', (target) => {
  const fx = useFixture(target);

  beforeAll(() => useService({ DATABASE_URL: fx.db.url, DEFINITIONS_DIR: broken }));

  it('names each broken file with its exact problem, and passes the good one', async () => {
    const results = await validateDefinitions(config());
    expect(results.map((r) => r.name)).toEqual(Object.keys(expected).sort());
    for (const result of results) {
      expect(result.ok).toBe(result.name === 'Fine');
      expect(result.detail).toMatch(expected[result.name] as RegExp);
    }
  });

  it('the command prints a line per resource and exits 1', async () => {
    const run = promisify(execFile)(path.join(root, 'node_modules', '.bin', 'tsx'), ['scripts/validate.ts'], {
      cwd: root,
      env: { ...process.env, NODE_OPTIONS: '', DATABASE_URL: fx.db.url, DEFINITIONS_DIR: broken },
    });
    const failure = (await run.then(
      () => undefined,
      (error: unknown) => error,
    )) as { code: number; stdout: string } | undefined;
    expect(failure?.code).toBe(1);
    const lines = failure?.stdout.trim().split('\n') ?? [];
    expect(lines).toHaveLength(Object.keys(expected).length + 1);
    expect(lines.filter((l) => l.startsWith('OK  '))).toEqual([expect.stringMatching(/^OK {4}Fine +flat, 2 fields$/)]);
    expect(lines.at(-1)).toBe(`1 of 14 definitions under ${broken} are valid`);
  });
});
