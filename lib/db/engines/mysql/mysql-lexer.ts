/**
 * Where a quoted text or a comment starts and ends in MySQL's SQL, for the claim placeholders of a definition's
 * query (lib/definitions finds them outside both): strings, which take backslash escapes, and backquoted names;
 * `-- ` (followed by a space), `#` and `/* *\/` comments. Pure.
 */
import type { SqlLexer } from '../../engine';
import { blockCommentEnd, lineCommentEnd, quotedText } from '../sql-lexing';

export const mysqlLexer: SqlLexer = {
  quotedAt(query, i) {
    const quote = query[i] as string;
    if (quote !== "'" && quote !== '"' && quote !== '`') return undefined;
    return quotedText(query, i, quote, quote !== '`');
  },
  commentEnd(query, i) {
    const rest = query.slice(i, i + 3);
    return /^--(\s|$)/.test(rest) || rest.startsWith('#') ? lineCommentEnd(query, i) : blockCommentEnd(query, i);
  },
};
