/**
 * CSV through the real handlers, on PGlite and each server whose URL is set: reads of a flat resource as text/csv
 * (by Accept or `_output`), each value as JSON gives it, NULL an empty field and the empty string `""`; R2 a header
 * and one row; a hierarchical resource a 406; a POST of text/csv rows inserts them as a JSON body would, in one
 * transaction, each bad body a 400 naming what is wrong; CSV on other methods and resources a 415; writes never
 * answer CSV. And the read cap and result-size limit hold for CSV as for JSON.
 */
import { isLosslessNumber, parse as parseLossless } from 'lossless-json';
import { readCsvRecords } from '../../lib/request/read-csv-body';
import { targets } from '../support/databases';
import { useFixture } from '../support/fixture';
import { invoke, parseXml, testDefinitions, useService } from '../support/service';

const csvType = 'text/csv; charset=utf-8; header=present';
const asCsv = { accept: 'text/csv' };
const csvBody = { 'content-type': 'text/csv' };
const labels = 'id,name,price,qty,big,ratio,active,born,at_time,stamp,data,note,color,tag,double_price';

/** Records of a CSV text: empty unquoted fields as null, as the service reads them (the exact texts are checked too). */
function records(text: string): (string | null)[][] {
  return readCsvRecords(text).map((record) => record.fields.map((field) => (field === null ? null : String(field))));
}

async function readCsv(path: string, query = ''): Promise<string> {
  const reply = await invoke({ method: 'GET', path, query, headers: asCsv });
  expect(reply.status).toBe(200);
  expect(reply.headers['content-type']).toBe(csvType);
  return reply.body;
}

/** The JSON read's values as CSV gives them: numbers by their digits, true/false, strings, null. */
async function jsonRecords(path: string, query = ''): Promise<(string | null)[][]> {
  const reply = await invoke({ method: 'GET', path, query, headers: { accept: 'application/json' } });
  const rows = (parseLossless(reply.body) as { items: Record<string, unknown>[] }).items;
  return rows.map((row) =>
    Object.values(row).map((value) =>
      value === null ? null : isLosslessNumber(value) ? value.value : String(value as string | boolean),
    ),
  );
}

describe.each(targets())('CSV on $name', (target) => {
  const fx = useFixture(target);

  describe('reads', () => {
    it('answers Accept: text/csv with a header row of labels and each row as JSON gives it', async () => {
      const reply = await invoke({ method: 'GET', path: '/res/Item', headers: asCsv });
      expect(reply.status).toBe(200);
      expect(reply.headers).toMatchObject({
        'content-type': csvType,
        vary: 'Accept, Prefer',
        'cache-control': 'no-cache, no-transform',
      });
      const [header, ...rows] = records(reply.body);
      expect(header?.join(',')).toBe(labels);
      expect(rows).toEqual(await jsonRecords('/res/Item'));
      expect(reply.body.endsWith('\r\n')).toBe(true);
      expect(reply.body.split('\r\n')).toHaveLength(6);
    });

    it('quotes a comma and quotes; NULL is an empty field', async () => {
      const body = await readCsv('/res/Item/3');
      expect(body).toMatch(/^id,name,.*\r\n3,"cherry & co, ""quoted"" <tag>",20\.99,7,,,,1999-12-31,23:59:59,/);
      expect(body).toMatch(/,it's 100%,dark,,41\.98\r\n$/);
    });

    it('R2 by _output=csv: a header row and the one row', async () => {
      const reply = await invoke({ method: 'GET', path: '/res/Item/4', query: '_output=csv' });
      expect(reply.headers['content-type']).toBe(csvType);
      expect(records(reply.body)).toEqual([labels.split(','), ...(await jsonRecords('/res/Item/4'))]);
      expect(records(reply.body)[1]?.slice(0, 4)).toEqual(['4', 'dürüm', '3.10', null]);
    });

    it('filters, orders and pages as any read; no rows is the header row alone', async () => {
      expect(records(await readCsv('/res/Item', 'price=>1&_order=-price&_limit=2')).map((r) => r[1])).toEqual([
        'name',
        'cherry & co, "quoted" <tag>',
        'dürüm',
      ]);
      expect(await readCsv('/res/Item', 'name=none')).toBe(`${labels}\r\n`);
    });

    it('answers XML or JSON as before unless CSV ranks first', async () => {
      for (const accept of ['text/csv, application/json', '*/*', 'text/*']) {
        const reply = await invoke({ method: 'GET', path: '/res/Item/1', headers: { accept } });
        expect(reply.headers['content-type']).not.toBe(csvType);
      }
    });

    it.each([
      ['Accept: text/csv', { headers: asCsv }],
      ['_output=text/csv', { query: '_output=text/csv' }],
    ])('refuses a hierarchical resource with a 406 saying why (%s)', async (_, call) => {
      const reply = await invoke({ method: 'GET', path: '/res/TeamPlayers', ...call });
      expect(reply.status).toBe(406);
      expect(reply.headers['content-type']).toBe('text/plain; charset=utf-8');
      expect(reply.body).toBe(
        'Resource TeamPlayers is hierarchical (its rows hold players), and text/csv is for flat resources; use application/xml or application/json',
      );
    });

    it('names text/csv in the 406 of a read whose Accept admits nothing', async () => {
      const reply = await invoke({ method: 'GET', path: '/res/Item', headers: { accept: 'image/png' } });
      expect(reply.status).toBe(406);
      expect(reply.body).toBe(
        'Accept "image/png" admits no type this service answers with; use application/xml or application/json (or text/csv, on a flat resource)',
      );
    });
  });

  describe('inserts', () => {
    async function post(body: string, headers: Record<string, string> = {}, query = '') {
      return invoke({ method: 'POST', path: '/res/Item', query, headers: { ...csvBody, ...headers }, body });
    }

    it('inserts each row, converting values per field, and answers XML with rowsAffected as JSON would', async () => {
      const reply = await post(
        'name,price,qty,active,born,color\r\nfig,2.5,3,true,2024-01-02,green\r\nkiwi,0.10,,false,,\r\n',
      );
      expect(reply.status).toBe(200);
      expect(reply.headers['content-type']).toBe('application/xml');
      const response = parseXml(reply.body).writeResponse as Record<string, unknown>;
      expect(records(await readCsv('/res/Item', 'id=>100'))).toEqual([
        labels.split(','),
        ['101', 'fig', '2.50', '3', null, null, 'true', '2024-01-02', null, null, null, null, 'green', null, '5.00'],
        ['102', 'kiwi', '0.10', null, null, null, 'false', null, null, null, null, null, null, null, '0.20'],
      ]);
      const json = await invoke({
        method: 'POST',
        path: '/res/Item',
        headers: { 'content-type': 'application/json', accept: 'application/xml' },
        body: JSON.stringify({
          items: [
            { name: 'fig2', price: '2.5', qty: '3', active: 'true', born: '2024-01-02', color: 'green' },
            { name: 'kiwi2', price: '0.10', qty: null, active: 'false', born: null, color: null },
          ],
        }),
      });
      expect(response.rowsAffected).toBe((parseXml(json.body).writeResponse as Record<string, unknown>).rowsAffected);
    });

    it('answers JSON by Accept, as a JSON body does', async () => {
      const reply = await post('name\r\nfig\r\n', { accept: 'application/json' });
      expect(JSON.parse(reply.body)).toMatchObject({ rowsAffected: 1, items: [{ id: 101, name: 'fig' }] });
    });

    it('round-trips NULL and the empty string, commas, quotes, line breaks and unicode', async () => {
      const rows = ['name,note,tag', 'n1,,""', 'n2,"",', '"a, b","say ""hi""","two\r\nlines"', 'dürüm 😀,"x\ny",日本'];
      const written = `${rows.join('\r\n')}\r\n`;
      expect((await post(written)).status).toBe(200);
      const read = await readCsv('/res/Item', 'id=>100');
      const columns = (record: (string | null)[]) => [record[1], record[11], record[13]];
      expect(records(read).map(columns)).toEqual(records(written));
      expect(read).toContain('\r\n101,n1,0.00,,,,,,,,,,,"",0.00\r\n');
      expect(await jsonRecords('/res/Item', 'id=101')).toEqual([records(read)[1]]);
      expect(await fx.count('item', "note = ''")).toBe(1);
      // banana's, and n1's
      expect(await fx.count('item', 'note IS NULL')).toBe(2);
    });

    it.each<[string, string, RegExp | string]>([
      ['an unknown label', 'name,colour\r\nfig,red\r\n', /colour.*name/],
      ['a computed field', 'name,double_price\r\nfig,1\r\n', /double_price.*read-only/],
      ['a value its field cannot take', 'name,qty\r\nfig,many\r\n', /qty/],
      ['no header row', '\r\n', 'Column 1 of the CSV header row has no label'],
      [
        'a row of another length',
        'name,qty\r\nfig,1\r\nkiwi\r\n',
        'Line 3 of the CSV body has 1 field; the header row has 2 fields',
      ],
      [
        'a quoting error',
        'name,note\r\nfig,"never closed\r\n',
        'The CSV body is not valid in the row at line 2: a quoted field is never closed; a field holding a comma, a quote or a line break is written in double quotes, each quote in it doubled ("")',
      ],
      ['a header row alone', 'name,qty\r\n', 'The request body holds no rows'],
    ])('refuses %s with a 400 and writes nothing', async (_, body, message) => {
      const reply = await post(body);
      expect(reply.status).toBe(400);
      expect(reply.headers['content-type']).toBe('text/plain; charset=utf-8');
      expect(reply.body).toMatch(message);
      expect(await fx.count('item')).toBe(4);
    });

    it('writes nothing when one row fails: one transaction', async () => {
      const reply = await post('name,qty\r\nfig,1\r\nkiwi,-1\r\nlime,2\r\n');
      expect(reply.status).toBeGreaterThanOrEqual(400);
      expect(await fx.count('item')).toBe(4);
      const duplicate = await post('name\r\nfig\r\napple\r\n');
      expect(duplicate.status).toBe(409);
      expect(await fx.count('item')).toBe(4);
    });

    it.each<[string, { method: string; override?: string }]>([
      ['PUT', { method: 'PUT' }],
      ['DELETE', { method: 'DELETE' }],
      ['PUT by X-HTTP-Method-Override', { method: 'POST', override: 'PUT' }],
    ])('refuses a CSV body on %s with a 415 saying why', async (method, { method: verb, override }) => {
      const headers = override ? { ...csvBody, 'x-http-method-override': override } : csvBody;
      const reply = await invoke({ method: verb, path: '/res/Item', headers, body: 'id,name\r\n1,x\r\n' });
      expect(reply.status).toBe(415);
      expect(reply.body).toBe(
        `A text/csv body holds rows to insert, so it goes with POST only; ${method.slice(0, method.includes('DELETE') ? 6 : 3)} takes application/xml or application/json or application/x-www-form-urlencoded`,
      );
      expect(await fx.count('item', "name = 'x'")).toBe(0);
    });

    it('refuses a CSV body on a hierarchical resource with a 415 saying why', async () => {
      const reply = await invoke({
        method: 'POST',
        path: '/res/TeamPlayers',
        headers: csvBody,
        body: 'name\r\nWasps\r\n',
      });
      expect(reply.status).toBe(415);
      expect(reply.body).toBe(
        'Resource TeamPlayers is hierarchical (its rows hold players), and a text/csv body holds flat rows only; send its rows as application/xml or application/json',
      );
      expect(await fx.count('team')).toBe(3);
    });

    it('refuses a key in the path, as for any body on a flat resource', async () => {
      const reply = await invoke({ method: 'POST', path: '/res/Item/1', headers: csvBody, body: 'name\r\nfig\r\n' });
      expect(reply.status).toBe(400);
      expect(await fx.count('item')).toBe(4);
    });

    it.each<[string, { query?: string; headers?: Record<string, string> }, RegExp]>([
      [
        '_output=csv',
        { query: '_output=csv' },
        /^_output asks for text\/csv, which only reads of flat resources answer with/,
      ],
      [
        'Accept: text/csv',
        { headers: asCsv },
        /^Accept "text\/csv" admits no type this service answers with; use application\/xml or application\/json$/,
      ],
    ])('never answers a write in CSV (%s): a 406 before anything is written', async (_, call, message) => {
      const reply = await post('name\r\nfig\r\n', call.headers, call.query);
      expect(reply.status).toBe(406);
      expect(reply.body).toMatch(message);
      expect(await fx.count('item')).toBe(4);
    });
  });
});

const [pglite] = targets();

describe('CSV reads within the limits', () => {
  const fx = useFixture(pglite as NonNullable<typeof pglite>);

  beforeAll(async () => {
    await useService({
      DATABASE_URL: fx.db.url,
      DEFINITIONS_DIR: testDefinitions,
      MAX_ROWS: '3',
      MAX_RESULT_BYTES: '300',
    });
  });

  afterAll(async () => {
    await useService({ MAX_ROWS: undefined, MAX_RESULT_BYTES: undefined });
  });

  it('a read over the cap is a 413; a page of it is not', async () => {
    const all = await invoke({ method: 'GET', path: '/res/Item', headers: asCsv });
    expect(all.status).toBe(413);
    expect(all.headers['content-type']).toBe('text/plain; charset=utf-8');
    const page = await invoke({ method: 'GET', path: '/res/Item', query: '_limit=1', headers: asCsv });
    expect(page.status).toBe(200);
  });

  it('a result over MAX_RESULT_BYTES is a 413 that says how to page', async () => {
    const reply = await invoke({ method: 'GET', path: '/res/Item', query: '_limit=3', headers: asCsv });
    expect(reply.status).toBe(413);
    expect(reply.body).toMatch(/larger than 300 bytes; page it with _limit and _offset/);
  });
});
