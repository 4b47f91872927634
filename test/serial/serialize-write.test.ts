import { serializeWrite } from '../../lib/serial/serialize-write';
import type { OutputType, OutRow } from '../../lib/values';
import { el, flat, hierarchical, readXml } from './fixtures';

const declaration = '<?xml version="1.0" encoding="UTF-8"?>';

describe('serializeWrite', () => {
  it.each<[string, number, OutRow[] | undefined, OutputType, string]>([
    ['an update in XML', 3, undefined, 'application/xml', `${declaration}<writeResponse rowsAffected="3"/>`],
    ['an update of nothing in XML', 0, undefined, 'application/xml', `${declaration}<writeResponse rowsAffected="0"/>`],
    ['an insert of nothing in XML', 0, [], 'application/xml', `${declaration}<writeResponse rowsAffected="0"/>`],
    ['an update in JSON', 3, undefined, 'application/json', '{"rowsAffected":3}'],
    ['an update of nothing in JSON', 0, undefined, 'application/json', '{"rowsAffected":0}'],
    ['an insert of nothing in JSON', 0, [], 'application/json', '{"rowsAffected":0,"items":[]}'],
    [
      'an insert in XML',
      1,
      [{ values: { id: 7, price: '20.10', active: false, title: null } }],
      'application/xml',
      `${declaration}<writeResponse rowsAffected="1"><item id="7" price="20.10" active="false"/></writeResponse>`,
    ],
    [
      'an insert in JSON',
      2,
      [{ values: { id: 7, price: '20.10', active: false, title: null } }, { values: { id: 8, price: '0.00' } }],
      'application/json',
      '{"rowsAffected":2,"items":[{"id":7,"price":20.10,"active":false,"title":null},{"id":8,"price":0.00}]}',
    ],
  ])('writes %s', async (_what, rowsAffected, rows, type, expected) => {
    expect(await serializeWrite(flat, rowsAffected, rows, type)).toEqual(expected);
  });

  const nested: OutRow[] = [
    { values: { langId: 1 }, children: [{ values: { filmId: 10, title: 'New' } }] },
    { values: { langId: 5, langName: 'Klingon' } },
  ];

  it('writes a hierarchical insert in XML in the nested shape', async () => {
    expect(readXml(await serializeWrite(hierarchical, 3, nested, 'application/xml'))).toEqual([
      el('writeResponse', { rowsAffected: '3' }, [
        el('lang', { langId: '1' }, [el('movie', { filmId: '10', title: 'New' })]),
        el('lang', { langId: '5', langName: 'Klingon' }),
      ]),
    ]);
  });

  it('writes a hierarchical insert in JSON with [] for a new childless parent', async () => {
    expect(await serializeWrite(hierarchical, 3, nested, 'application/json')).toEqual(
      '{"rowsAffected":3,"langs":[{"langId":1,"movies":[{"filmId":10,"title":"New"}]},' +
        '{"langId":5,"langName":"Klingon","movies":[]}]}',
    );
  });
});
