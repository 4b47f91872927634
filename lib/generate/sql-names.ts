/**
 * How a generated query writes a table or column name: as it is when both PostgreSQL and MySQL read it back
 * unchanged (lower case, letters, digits and `_`, not a reserved word), else quoted the engine's way, so that
 * `Order Line`, `Title` or `order` are names and not syntax. Pure.
 */

/** Words reserved by PostgreSQL or MySQL/MariaDB that a table or column is likely to be named. */
const reserved = new Set(
  `all analyse analyze and any array as asc asymmetric between both by call case cast change check collate column
constraint create cross current_date current_role current_time current_timestamp current_user database default
delete desc describe distinct div do drop else end except exists fetch for foreign from full grant group having
ilike in index inner insert interval into is join key keys kill lateral leading left like limit localtime
localtimestamp match mod natural not null of offset on only or order outer over partition placing primary range
read references release rename repeat replace require return revoke right row rows schema select session_user set
show some symmetric table then to trailing true false union unique update usage use user using values when where
window with write year_month`.split(/\s+/),
);

export type Quote = (name: string) => string;

/** `name` as a query writes it, quoted by `quote` when it must be. */
export function sqlName(name: string, quote: Quote): string {
  return /^[a-z_][a-z0-9_]*$/.test(name) && !reserved.has(name) ? name : quote(name);
}
