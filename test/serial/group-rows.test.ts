/**
 * Regrouping the joined rows of a hierarchical read into parents holding their children: by the parent's key,
 * wherever a parent's rows come among the others (an order by a child field may interleave parents), parents in the
 * order each first appears and children in the order they come. A table of cases.
 */
import { groupRows } from '../../lib/serial/group-rows';
import type { OutRow, Row } from '../../lib/values';
import { bookResource, languageResource } from '../support/resources';

const film = (langId: number, name: string, filmId: number | null, title: string | null): Row => ({
  langId: String(langId),
  langName: name,
  filmId: filmId === null ? null : String(filmId),
  title,
});
const language = (langId: number, name: string, films: [number, string][]): OutRow => ({
  values: { langId: String(langId), langName: name },
  children: films.map(([filmId, title]) => ({ values: { filmId: String(filmId), title } })),
});

const cases: { name: string; rows: Row[]; parents: OutRow[] }[] = [
  { name: 'no rows: no parents', rows: [], parents: [] },
  {
    name: "a parent's rows one after another",
    rows: [film(1, 'English', 10, 'A'), film(1, 'English', 11, 'B'), film(2, 'French', 20, 'C')],
    parents: [
      language(1, 'English', [
        [10, 'A'],
        [11, 'B'],
      ]),
      language(2, 'French', [[20, 'C']]),
    ],
  },
  {
    name: "a parent's rows apart (ordered by a child field): one parent, in the order it first came",
    rows: [film(2, 'French', 20, 'A'), film(1, 'English', 10, 'B'), film(2, 'French', 21, 'C')],
    parents: [
      language(2, 'French', [
        [20, 'A'],
        [21, 'C'],
      ]),
      language(1, 'English', [[10, 'B']]),
    ],
  },
  {
    name: "a childless parent (the outer join's NULL filler) has no children",
    rows: [film(3, 'Latin', null, null), film(1, 'English', 10, 'B')],
    parents: [language(3, 'Latin', []), language(1, 'English', [[10, 'B']])],
  },
];

describe('groupRows', () => {
  it.each(cases)('$name', ({ rows, parents }) => {
    expect(groupRows(languageResource('postgres'), rows)).toEqual(parents);
  });

  it('keeps the rows of a flat resource as they come, one per row, even when equal', () => {
    const row = { id: '1', title: 'A', price: null, published: null, summary: null, titleLength: null };
    expect(groupRows(bookResource('postgres'), [row, row])).toEqual([{ values: row }, { values: row }]);
  });
});
