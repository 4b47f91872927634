/**
 * The example requests of the `npm start` banner: the demo's requests when the demo's folder is served, else the
 * listing and the first resources of the folder DEFINITIONS_DIR names, so no request shown names a resource that
 * is not there. And the demo database's failure, which npm start reports and stops on.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { exampleRequests } from '../../scripts/start';
import { freePort, root, serviceEnv, startProcess } from '../support/local-process';

const base = 'http://localhost:3000';

it('names the demo resources when it serves the demo folder', async () => {
  expect(await exampleRequests(path.join(root, 'definitions'), base, '')).toEqual([
    `curl ${base}/res/Publisher`,
    `curl '${base}/res/Book?publisher_id=3&_output=json'`,
    `curl -H 'Accept: application/json' ${base}/res/bookstore.Author/1`,
  ]);
});

it('names the first resources of the folder DEFINITIONS_DIR names, with the token header when sign-in is on', async () => {
  const dir = path.join(root, 'test', 'fixtures', 'definitions');
  expect(await exampleRequests(dir, base, '')).toEqual([
    `curl ${base}/res/`,
    `curl ${base}/res/Broken`,
    `curl -H 'Accept: application/json' ${base}/res/Events`,
  ]);
  const auth = '-H "Authorization: Bearer $TOKEN" ';
  expect(await exampleRequests(path.join(dir, 'shop'), base, auth)).toEqual([
    `curl ${auth}${base}/res/`,
    `curl ${auth}${base}/res/Widget`,
  ]);
});

it('says when the folder holds no definitions yet', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'rrs-banner-'));
  expect(await exampleRequests(dir, base, '')).toEqual([`curl ${base}/res/    (no definitions under ${dir} yet)`]);
  rmSync(dir, { recursive: true });
});

it('stops, saying why, when the embedded database cannot open while serverless-offline starts', async () => {
  const tsx = path.join(root, 'node_modules', '.bin', 'tsx');
  const missing = path.join(tmpdir(), 'rrs-no-such-snapshot.tar');
  const env = serviceEnv({ PORT: String(await freePort()), RRS_DEMO_SNAPSHOT: missing });
  const started = await startProcess(tsx, ['scripts/start.ts'], env, 'npm start failed');
  try {
    expect(started.output()).toContain(`npm start failed: ENOENT: no such file or directory, open '${missing}'`);
    expect(started.output()).not.toContain('Stop with Ctrl-C');
  } finally {
    await started.stop();
  }
});
