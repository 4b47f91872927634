/**
 * The requests of `npm run bench:http` and `npm run bench:profile`: R2 by key, R1 with 100 flat rows, R1 with 100
 * nested rows and C1, as the service and as the ceiling server (scripts/bench/ceiling-server.ts) take them.
 */
import type { BenchRequest as Request } from './load';

export interface Case {
  readonly name: string;
  service(n: number): Request;
  ceiling(n: number): Request;
  /** A read: the ceiling's answer must be the service's, byte for byte (checked before the load). */
  readonly read?: boolean;
}

const form = { 'content-type': 'application/x-www-form-urlencoded' };
const run = Date.now().toString(36);

export const cases: readonly Case[] = [
  {
    name: 'R2 single row by key',
    service: (n) => ({ method: 'GET', path: `/res/Book/${(n % 200) + 1}` }),
    ceiling: (n) => ({ method: 'GET', path: `/r2/${(n % 200) + 1}` }),
    read: true,
  },
  {
    name: 'R1 100 flat rows',
    service: () => ({ method: 'GET', path: '/res/Book?_limit=100' }),
    ceiling: () => ({ method: 'GET', path: '/r1' }),
    read: true,
  },
  {
    name: 'R1 hierarchical 100 rows',
    service: () => ({ method: 'GET', path: '/res/BookReviews?_limit=100' }),
    ceiling: () => ({ method: 'GET', path: '/r1h' }),
    read: true,
  },
  {
    name: 'C1 insert one row',
    service: (n) => ({ method: 'POST', path: '/res/Publisher', headers: form, body: `name=s-${run}-${n}` }),
    ceiling: (n) => ({ method: 'POST', path: '/c1', headers: form, body: `name=c-${run}-${n}` }),
  },
];

/** The cases whose names start with one of `words` (all of them when there is none). */
export function casesNamed(words: readonly string[]): readonly Case[] {
  return cases.filter((c) => words.length === 0 || words.some((word) => c.name.startsWith(word)));
}
