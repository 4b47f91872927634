/**
 * Where a quoted text or a comment starts and ends in PostgreSQL's SQL, for the claim placeholders of a
 * definition's query (lib/definitions finds them outside both): strings (E'...' strings take backslash escapes),
 * quoted names, dollar quoting; `--` and `/* *\/` comments. Pure.
 */
import type { SqlLexer } from '../../engine';
import { blockCommentEnd, closedAt, lineCommentEnd, quotedText } from '../sql-lexing';

export const postgresLexer: SqlLexer = {
  quotedAt(query, i) {
    const quote = query[i] as string;
    const dollar = quote === '$' ? /^\$([A-Za-z_][A-Za-z0-9_]*)?\$/.exec(query.slice(i)) : null;
    if (dollar) return closedAt(query, dollar[0], query.indexOf(dollar[0], i + dollar[0].length));
    if (quote !== "'" && quote !== '"') return undefined;
    const escapes = quote === "'" && /(^|[^A-Za-z0-9_$])[eE]$/.test(query.slice(0, i));
    return quotedText(query, i, quote, escapes);
  },
  commentEnd: (query, i) => (query.startsWith('--', i) ? lineCommentEnd(query, i) : blockCommentEnd(query, i)),
};
