/**
 * Whether a definition's query shows every row of its one table: a single SELECT that reads that table alone, with
 * no condition, grouping, DISTINCT, aggregate, set operation or paging. Writes through such a resource need not ask
 * which rows the query shows (they all are). Read from the query's words outside quotes and comments, without
 * parsing SQL: anything it does not recognise counts as "not every row", which only costs writes a check. Pure.
 */
import type { EngineName, ResourceTable } from '../resource';
import { type SqlToken, sqlTokens } from './sql-lexer';

/** Functions that fold many rows into one (a query with one and no GROUP BY shows a single row). */
const aggregates = new Set(
  'count sum avg min max group_concat string_agg array_agg json_agg jsonb_agg json_object_agg jsonb_object_agg json_arrayagg json_objectagg bit_and bit_or bit_xor bool_and bool_or every std stddev stddev_pop stddev_samp variance var_pop var_samp xmlagg'.split(
    ' ',
  ),
);

/** Words that cannot be the table's name or alias in `FROM name [[AS] alias]`. */
const clauseWords = new Set(
  'only lateral tablesample natural cross inner left right full outer join on using where group having window order limit offset fetch for lock union intersect except minus partition use force ignore straight_join'.split(
    ' ',
  ),
);

export function showsEveryRow(
  query: string,
  table: Pick<ResourceTable, 'schema' | 'table'>,
  engine: EngineName,
): boolean {
  const top = sqlTokens(query, engine);
  const words = top.filter((t) => t.depth === 0 && !t.quoted).map((t) => t.text.toLowerCase());
  if (words[0] !== 'select' || words[1] === 'distinct') return false;
  const froms = top.flatMap((t, i) => (t.depth === 0 && !t.quoted && t.text.toLowerCase() === 'from' ? [i] : []));
  if (froms.length !== 1) return false;
  const selectList = top.slice(0, froms[0]);
  const folds = selectList.some(
    (t, i) => t.depth === 0 && !t.quoted && aggregates.has(t.text.toLowerCase()) && selectList[i + 1]?.text === '(',
  );
  return !folds && namesTable(top.slice((froms[0] as number) + 1), table);
}

/** `name`, `schema.name`, either followed by `alias` or `AS alias`, and nothing else; the name is the table's. */
function namesTable(rest: readonly SqlToken[], table: Pick<ResourceTable, 'schema' | 'table'>): boolean {
  const qualified = rest[1]?.text === '.';
  const name = qualified ? rest[2] : rest[0];
  const after = rest.slice(qualified ? 3 : 1);
  const alias = after[0]?.text.toLowerCase() === 'as' ? after.slice(1) : after;
  if (!name || alias.length > 1 || after.length > 2 || (after.length === 2 && alias.length !== 1)) return false;
  const aliasWord = alias[0];
  if (
    aliasWord &&
    !aliasWord.quoted &&
    (clauseWords.has(aliasWord.text.toLowerCase()) || !/^\w+$/.test(aliasWord.text))
  )
    return false;
  if (qualified && !sameName(rest[0] as SqlToken, table.schema)) return false;
  return sameName(name, table.table) && !clauseWords.has(name.text.toLowerCase());
}

function sameName(token: SqlToken, name: string): boolean {
  const text = token.quoted ? unquote(token.text) : token.text;
  return /^[^'$]/.test(token.text) && text.toLowerCase() === name.toLowerCase();
}

/** A quoted name's text: its quotes removed, a doubled quote read as one. */
function unquote(text: string): string {
  const quote = text[0] as string;
  return text.slice(1, -1).replaceAll(quote + quote, quote);
}

/**
 * The query's own ordering and paging clauses (ORDER BY, LIMIT, OFFSET, FETCH), outside parentheses, as written in
 * capitals: reads take the query as a derived table and order and page it by key themselves, so its ORDER BY never
 * orders what a client gets, and its LIMIT caps the rows before the service pages them.
 */
export function orderingClauses(query: string, engine: EngineName): string[] {
  const top = sqlTokens(query, engine).filter((t) => t.depth === 0 && !t.quoted);
  const word = (i: number) => top[i]?.text.toLowerCase();
  const found = top.flatMap((_, i) => {
    const w = word(i);
    if (w === 'order' && word(i + 1) === 'by') return ['ORDER BY'];
    if (w === 'limit' || (w === 'fetch' && (word(i + 1) === 'first' || word(i + 1) === 'next')))
      return [w.toUpperCase()];
    // OFFSET is no reserved word in MySQL (a column may be called so): a clause only when a count follows
    return w === 'offset' && /^(\d|\?|\$)/.test(top[i + 1]?.text ?? '') ? ['OFFSET'] : [];
  });
  return [...new Set(found)];
}
