/**
 * `npm test` never skips a server test in silence: without a server's URL it ends by saying which test files
 * left that server out and which variable runs them; with CI=true a missing URL fails the run. Runs jest itself
 * on three real test files: one with server-only tests, one described per database target, and one that only
 * takes the embedded target (it leaves nothing out).
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { root, serviceEnv } from '../support/local-process';

const files = [
  'test/demo/demo-data.test.ts',
  'test/integration/missing-database.test.ts',
  'test/integration/limits.test.ts',
];

/** jest on those files, running only one quick test: which tests exist is decided when the files load. */
function runJest(env: Record<string, string>) {
  const jest = path.join(root, 'node_modules', '.bin', 'jest');
  const withoutServers = Object.fromEntries(
    Object.entries(serviceEnv(env)).filter(([name]) => !['TEST_PG_URL', 'TEST_MYSQL_URL', 'CI'].includes(name)),
  );
  const run = spawnSync(jest, [...files, '-t', 'is deterministic'], {
    cwd: root,
    env: { ...withoutServers, ...env, NODE_OPTIONS: '--experimental-vm-modules' },
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { status: run.status, stdout: run.stdout, output: `${run.stdout}${run.stderr}` };
}

it('without TEST_PG_URL and TEST_MYSQL_URL: passes, and names the files that left the servers out', () => {
  const { status, stdout } = runJest({});
  expect(status).toBe(0);
  expect(stdout).toBe(
    [
      '',
      'Left out: the tests on a PostgreSQL and MariaDB/MySQL server in 2 test files, because TEST_PG_URL and TEST_MYSQL_URL are not set:',
      '  test/demo/demo-data.test.ts',
      '  test/integration/missing-database.test.ts',
      '  To run them: TEST_PG_URL=postgres://postgres@127.0.0.1:5432/postgres TEST_MYSQL_URL=mysql://root@127.0.0.1:3306/test npm test',
      '',
      '',
    ].join('\n'),
  );
});

it('with only TEST_PG_URL: the MariaDB/MySQL tests are the ones left out', () => {
  const { status, stdout } = runJest({ TEST_PG_URL: 'postgres://postgres@127.0.0.1:5432/postgres' });
  expect(status).toBe(0);
  expect(stdout).toContain(
    [
      'Left out: the tests on a MariaDB/MySQL server in 2 test files, because TEST_MYSQL_URL is not set:',
      '  test/demo/demo-data.test.ts',
      '  test/integration/missing-database.test.ts',
      '  To run them: TEST_MYSQL_URL=mysql://root@127.0.0.1:3306/test npm test',
    ].join('\n'),
  );
  expect(stdout).not.toContain('PostgreSQL');
});

it('with CI=true, a missing server URL fails the run before any test', () => {
  const { status, output } = runJest({ CI: 'true', TEST_PG_URL: 'postgres://postgres@127.0.0.1:5432/postgres' });
  expect(status).toBe(1);
  expect(output).toContain(
    'CI runs every test on every database, but TEST_MYSQL_URL is not set (e.g. TEST_MYSQL_URL=mysql://root@127.0.0.1:3306/test)',
  );
  expect(output).not.toMatch(/Tests:/);
});
