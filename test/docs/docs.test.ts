/**
 * The documentation holds together: README.md stays short, every link between README.md and the docs/ pages
 * reaches a page and a heading that exist, and no page cites a label its reader cannot look up (the internal
 * decision ids, spec sections). Their examples run in test/e2e/doc-examples*.test.ts.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { mysqlEventTables } from '../../lib/db/engines/mysql/mysql-event-tables';
import { postgresEventTables } from '../../lib/db/engines/postgres/postgres-event-tables';
import { headingAnchors, linksIn } from '../support/doc-examples';

const root = path.resolve(__dirname, '..', '..');
const pages = ['README.md', ...readdirSync(path.join(root, 'docs')).map((name) => `docs/${name}`)].filter((page) =>
  page.endsWith('.md'),
);
const text = (page: string) => readFileSync(path.join(root, page), 'utf8');

it('README.md is at most 250 lines', () => {
  expect(text('README.md').split('\n').length).toBeLessThanOrEqual(250);
});

it('every link to a page or a heading reaches one', () => {
  const broken: string[] = [];
  for (const page of pages) {
    for (const { line, target } of linksIn(text(page))) {
      if (/^[a-z]+:/.test(target)) continue; // https://..., mailto:
      const [file = '', anchor] = target.split('#');
      const linked = file === '' ? page : path.posix.normalize(path.posix.join(path.posix.dirname(page), file));
      if (!existsSync(path.join(root, linked))) broken.push(`${page}:${line}: ${target} (no file ${linked})`);
      else if (anchor !== undefined && linked.endsWith('.md') && !headingAnchors(text(linked)).has(anchor)) {
        broken.push(`${page}:${line}: ${target} (no heading #${anchor} in ${linked})`);
      }
    }
  }
  expect(broken).toEqual([]);
});

it('cites no decision id or spec section, which readers cannot look up', () => {
  // R1, C2, U4, D3 ... are the operations' names (docs/operations.md); D5 and up, and spec sections, are not ours
  const label = /\bD(?:[5-9]|[1-9][0-9])[a-z]?\b|\bD[1-4][a-z]\b|\bspec [0-9]/;
  const cited = pages.flatMap((page) =>
    text(page)
      .split('\n')
      .flatMap((line, i) => (label.test(line) ? [`${page}:${i + 1}: ${line.trim()}`] : [])),
  );
  expect(cited).toEqual([]);
});

it('docs/events.md shows the statements npm run events:setup runs, on each engine', () => {
  const blocks = [...text('docs/events.md').matchAll(/```sql\n([\s\S]*?)```/g)].map((m) => m[1]);
  const shown = (statements: readonly string[]) => `${statements.join(';\n')};\n`;
  expect(blocks).toEqual([shown(postgresEventTables), shown(mysqlEventTables)]);
});
