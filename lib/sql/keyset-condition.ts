/**
 * The rows strictly after a cursor in a read's order (keyset paging): for the order (f1, f2, ..., key) and the last
 * row's values (v1, v2, ...), `f1 after v1 OR (f1 same as v1 AND (f2 after v2 OR ...))`. "After" follows where the
 * order puts NULL: a term asked for by `_order` has NULL below every value (first ascending, last descending); a
 * plain term (a key) has it where the engine's ascending order does; a field that is never NULL needs no NULL
 * test. When no NULL can follow the first value, `f1 >= v1 AND (...)` leads, so the database can start reading at
 * v1 in an index on f1 rather than filter every row before it. Values are bound as parameters. Pure.
 */
import type { Keyset, OrderTerm } from '../plan/plan';
import type { Value } from '../values';
import type { ParamList } from './param-list';

interface Term {
  readonly target: string;
  readonly value: Value;
  readonly descending: boolean;
  /** Whether NULL comes before every value in this term's order (false: after every value, or never NULL). */
  readonly nullsFirst: boolean;
  /** No row can follow this term's value in it: NULL, where NULL comes last. */
  readonly last: boolean;
  readonly nullable: boolean;
}

/** `column`: a label as the select writes it. */
export function keysetCondition(
  params: ParamList,
  orderBy: readonly (string | OrderTerm)[],
  { values, neverNull }: Keyset,
  column: (label: string) => string,
): string {
  const terms = orderBy.map((term, i): Term => {
    const label = typeof term === 'string' ? term : term.label;
    const descending = typeof term !== 'string' && term.descending;
    const nullsFirst = typeof term === 'string' ? params.shape.plainNullsFirst : !descending;
    const value = values[i] ?? null;
    const nullable = !neverNull.includes(label);
    return { target: column(label), value, descending, nullsFirst, last: value === null && !nullsFirst, nullable };
  });
  // from term i on, a row can come after only when some term there does not hold its last place already; the
  // text is written in the order its parameters are bound (MySQL's placeholders are by position)
  const after = (i: number): string | undefined => {
    const term = terms[i];
    if (term === undefined || terms.slice(i).every((t) => t.last)) return undefined;
    if (terms.slice(i + 1).every((t) => t.last)) return afterValue(params, term);
    if (term.last) return `(${same(params, term)} AND ${after(i + 1)})`;
    const lead = i === 0 ? leadingBound(params, term) : '';
    return `${lead}(${afterValue(params, term)} OR (${same(params, term)} AND ${after(i + 1)}))`;
  };
  // nothing comes after a row that holds the last place in every term
  return after(0) ?? '1 = 0';
}

/** `f >= v AND `: every row after has f at or beyond v, when no NULL can come after v. */
function leadingBound(params: ParamList, { target, value, descending, nullsFirst, nullable }: Term): string {
  if (value === null || (nullable && !nullsFirst)) return '';
  return `${target} ${descending ? '<=' : '>='} ${params.add(value)} AND `;
}

function same(params: ParamList, { target, value }: Term): string {
  return value === null ? `${target} IS NULL` : `${target} = ${params.add(value)}`;
}

/** The rows after the term's value in its own order (the term is not `last`). */
function afterValue(params: ParamList, { target, value, descending, nullsFirst, nullable }: Term): string {
  if (value === null) return `${target} IS NOT NULL`;
  const beyond = `${target} ${descending ? '<' : '>'} ${params.add(value)}`;
  return nullsFirst || !nullable ? beyond : `(${beyond} OR ${target} IS NULL)`;
}
