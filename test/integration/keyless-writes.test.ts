/**
 * U2 and D2 on resources whose query selects no primary key (D18), through the real handlers on every database:
 * a log read without its key (rows found by the values the query selects, then by key) and a table without any
 * primary key (rows written by value). Rows the definition's own WHERE hides stay untouched; U1, U3, D1 and D3
 * still need the key.
 */
import { targets } from '../support/databases';
import { useFixture } from '../support/fixture';
import { invoke } from '../support/service';

const form = { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' };

async function write(method: 'PUT' | 'DELETE', path: string, query: string, body?: string) {
  const reply = await invoke({ method, path, query, headers: body ? form : { accept: 'application/json' }, body });
  return { status: reply.status, body: reply.status === 200 ? JSON.parse(reply.body) : reply.body };
}

describe.each(targets())('writes by filter without a key on $name', (target) => {
  const fx = useFixture(target);
  const logRows = async () =>
    (await fx.db.exec('SELECT event_id, level, message FROM event_log ORDER BY event_id')).map((r) =>
      [r.event_id, r.level, r.message].map(String).join('|'),
    );

  it('D2 deletes the rows the filter matches, not the rows the query hides', async () => {
    expect(await write('DELETE', '/res/Events', 'level=warn')).toEqual({ status: 200, body: { rowsAffected: 2 } });
    expect(await logRows()).toEqual(['1|info|started', '4|null|no level', '5|secret|slow']);
  });

  it('U2 updates them, NULL filters and values included', async () => {
    expect(await write('PUT', '/res/Events', 'message=slow', 'message=quick')).toEqual({
      status: 200,
      body: { rowsAffected: 2 },
    });
    expect(await write('PUT', '/res/Events', 'level=null', 'level=debug')).toEqual({
      status: 200,
      body: { rowsAffected: 1 },
    });
    expect(await write('PUT', '/res/Events', 'level=info', 'level=null')).toEqual({
      status: 200,
      body: { rowsAffected: 1 },
    });
    expect(await logRows()).toEqual([
      '1|null|started',
      '2|warn|quick',
      '3|warn|quick',
      '4|debug|no level',
      '5|secret|slow',
    ]);
  });

  it('a filter that matches nothing affects nothing', async () => {
    expect(await write('DELETE', '/res/Events', 'level=nope')).toEqual({ status: 200, body: { rowsAffected: 0 } });
    expect(await write('PUT', '/res/Events', 'happened_at=%3E2030-01-01', 'level=x')).toEqual({
      status: 200,
      body: { rowsAffected: 0 },
    });
    expect(await fx.count('event_log')).toBe(5);
  });

  it('a table without a primary key: D2 and U2 write the matching rows by value', async () => {
    expect(await write('PUT', '/res/Loose', 'word=a', 'n=5')).toEqual({ status: 200, body: { rowsAffected: 2 } });
    expect(await fx.count('loose', 'n = 5')).toBe(2);
    expect(await write('PUT', '/res/Loose', 'n=5&word=a', 'word=b')).toEqual({
      status: 200,
      body: { rowsAffected: 2 },
    });
    expect(await write('DELETE', '/res/Loose', 'word=b&n=!2')).toEqual({ status: 200, body: { rowsAffected: 2 } });
    expect(await fx.db.exec('SELECT word, n FROM loose')).toEqual([{ word: 'b', n: 2 }]);
  });

  it.each([
    ['PUT', '/res/Events/1', 'level=x'],
    ['DELETE', '/res/Events/1', undefined],
  ] as const)('%s %s still needs the key: 400', async (method, path, body) => {
    const reply = await write(method, path, '', body);
    expect(reply).toEqual({
      status: 400,
      body: 'Resource Events cannot address rows by key: its query does not select the primary key of event_log',
    });
  });

  it('D1 still needs the key: 400', async () => {
    const reply = await invoke({
      method: 'DELETE',
      path: '/res/Events',
      headers: { 'content-type': 'application/json' },
      body: '{"events":[{"level":"warn"}]}',
    });
    expect(reply.status).toBe(400);
    expect(reply.body).toMatch(/^Resource Events cannot address rows by key/);
    expect(await fx.count('event_log')).toBe(5);
  });
});
