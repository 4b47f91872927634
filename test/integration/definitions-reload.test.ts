/**
 * How a changed definition reaches a warm container (D4, D23, D25): cached until DEFINITIONS_TTL_S has passed
 * (then revalidated against the file's version) or until /conf/reload; a deleted file is the D3 404 and a broken
 * edit the D1 500, both recovering when the file is mended.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { targets } from '../support/databases';
import { useFixture } from '../support/fixture';
import { invoke, testDefinitions, useService } from '../support/service';

const [pglite] = targets();
const fields = async () => {
  const reply = await invoke({ method: 'GET', path: '/res/Pair/ABC/1', query: '_output=json' });
  return reply.status === 200 ? Object.keys(JSON.parse(reply.body).pairList[0] ?? {}) : reply.status;
};

describe('definition changes', () => {
  const fx = useFixture(pglite as NonNullable<typeof pglite>);
  let dir = '';
  let file = '';
  const original = readFileSync(path.join(testDefinitions, 'Pair.xml'), 'utf8');
  /** Writes the file with a new mtime, as an editor or a deploy would. */
  const edit = (text: string, secondsAhead: number) => {
    writeFileSync(file, text);
    const at = new Date(Date.now() + secondsAhead * 1000);
    utimesSync(file, at, at);
  };

  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'rrs-defs-'));
    cpSync(testDefinitions, dir, { recursive: true });
    file = path.join(dir, 'Pair.xml');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  afterAll(() => useService({ DEFINITIONS_TTL_S: undefined }));

  it('with a long TTL a change waits for /conf/reload', async () => {
    await useService({ DATABASE_URL: fx.db.url, DEFINITIONS_DIR: dir, DEFINITIONS_TTL_S: '3600' });
    expect(await fields()).toEqual(['code', 'num', 'label']);
    edit(original.replace('select code, num, label from pair', 'select code, num from pair'), 10);
    expect(await fields()).toEqual(['code', 'num', 'label']);
    expect((await invoke({ method: 'GET', path: '/conf/reload/Pair' })).body).toBe('Reload of Pair succeeded');
    expect(await fields()).toEqual(['code', 'num']);
  });

  it('with DEFINITIONS_TTL_S=0 the next request sees the change; a deleted file is the 404; a broken one the 500', async () => {
    await useService({ DATABASE_URL: fx.db.url, DEFINITIONS_DIR: dir, DEFINITIONS_TTL_S: '0' });
    expect(await fields()).toEqual(['code', 'num', 'label']);
    edit(original.replace('select code, num, label from pair', 'select label, num, code from pair'), 10);
    expect(await fields()).toEqual(['label', 'num', 'code']);
    edit('<sqlResource><query>select</query>', 20);
    const broken = await invoke({ method: 'GET', path: '/res/Pair' });
    expect(broken.status).toBe(500);
    expect(broken.body).toMatch(/Pair\.xml is invalid: malformed XML/);
    edit(original, 30);
    expect(await fields()).toEqual(['code', 'num', 'label']);
    rmSync(file);
    const gone = await invoke({ method: 'GET', path: '/res/Pair' });
    expect(gone.status).toBe(404);
    expect(gone.body).toBe(`SQL Resource Pair not found - expected ${dir}/Pair.xml`);
  });
});
