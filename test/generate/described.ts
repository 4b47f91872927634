/**
 * Described tables for the generator's pure tests, written as briefly as a schema: `table('film', 'film_id*+,
 * title, language_id', { fks: [...] })`, where `*` marks a primary key column, `+` a generated one, `?` a nullable
 * one and `=` one with a default.
 */
import type { CatalogForeignKey } from '../../lib/db/database';
import type { DescribedSchema, DescribedTable } from '../../lib/db/engine';

interface Extra {
  readonly fks?: readonly (readonly [columns: string, refTable: string, refColumns?: string])[];
  readonly unique?: readonly string[];
  readonly comment?: string;
  readonly columnComments?: Record<string, string>;
}

export function table(name: string, columns: string, extra: Extra = {}): DescribedTable {
  const parsed = columns.split(',').map((c) => {
    const spec = c.trim();
    const column = spec.replace(/[*+?=]+$/, '');
    const marks = spec.slice(column.length);
    return { column, marks };
  });
  const fk = ([cols, refTable, refCols]: readonly [string, string, string?]): CatalogForeignKey => ({
    columns: cols.split(' '),
    refSchema: 'public',
    refTable,
    refColumns: (refCols ?? cols).split(' '),
  });
  return {
    schema: 'public',
    table: name,
    columns: parsed.map(({ column, marks }) => ({
      name: column,
      dbType: 'integer',
      type: 'integer',
      nullable: marks.includes('?'),
      generated: marks.includes('+'),
      readOnly: false,
      hasDefault: marks.includes('+') || marks.includes('='),
    })),
    primaryKey: parsed.filter((p) => p.marks.includes('*')).map((p) => p.column),
    foreignKeys: (extra.fks ?? []).map(fk),
    uniqueKeys: (extra.unique ?? []).map((u, i) => ({ name: `uq${i}`, columns: u.split(' ') })),
    columnComments: extra.columnComments ?? {},
    ...(extra.comment ? { comment: extra.comment } : {}),
  };
}

export function schemaOf(...tables: DescribedTable[]): DescribedSchema {
  return { schema: 'public', own: true, tables };
}
