/**
 * The rows strictly after a cursor in a read's order (keyset paging): for the order (f1, f2, ..., key) and the last
 * row's values (v1, v2, ...), `f1 after v1 OR (f1 same as v1 AND (f2 after v2 OR ...))`. "After" follows where the
 * order puts NULL: a term asked for by `_order` has NULL below every value (first ascending, last descending); a
 * plain term (a key) has it where the engine's ascending order does. Values are bound as parameters. Pure.
 */
import type { OrderTerm } from '../plan/plan';
import type { Value } from '../values';
import type { ParamList } from './param-list';

/** `column`: a label as the select writes it. */
export function keysetCondition(
  params: ParamList,
  orderBy: readonly (string | OrderTerm)[],
  values: readonly Value[],
  column: (label: string) => string,
): string {
  const terms = orderBy.map((term, i) => {
    const descending = typeof term !== 'string' && term.descending;
    const nullsFirst = typeof term === 'string' ? params.shape.plainNullsFirst : !descending;
    const value = values[i] ?? null;
    const target = column(typeof term === 'string' ? term : term.label);
    return { target, value, descending, nullsFirst, last: value === null && !nullsFirst };
  });
  // from term i on, a row can come after only when some term there does not hold its last place already
  const after = (i: number): string | undefined => {
    const term = terms[i];
    if (term === undefined || terms.slice(i).every((t) => t.last)) return undefined;
    const beyond = afterValue(params, term);
    const sameThenRest = terms.slice(i + 1).every((t) => t.last)
      ? undefined
      : `(${same(params, term)} AND ${after(i + 1)})`;
    if (beyond === undefined) return sameThenRest;
    return sameThenRest === undefined ? beyond : `(${beyond} OR ${sameThenRest})`;
  };
  // nothing comes after a row that holds the last place in every term
  return after(0) ?? '1 = 0';
}

interface Term {
  readonly target: string;
  readonly value: Value;
  readonly descending: boolean;
  readonly nullsFirst: boolean;
}

function same(params: ParamList, { target, value }: Term): string {
  return value === null ? `${target} IS NULL` : `${target} = ${params.add(value)}`;
}

/** The rows after the term's value in its own order; undefined when none can be (NULL, where NULL comes last). */
function afterValue(params: ParamList, { target, value, descending, nullsFirst }: Term): string | undefined {
  if (value === null) return nullsFirst ? `${target} IS NOT NULL` : undefined;
  const beyond = `${target} ${descending ? '<' : '>'} ${params.add(value)}`;
  return nullsFirst ? beyond : `(${beyond} OR ${target} IS NULL)`;
}
