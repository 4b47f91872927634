/**
 * A planned resource as the definition file a person would write: documentation (what the resource is, then the
 * comments the database holds on its tables and columns), the query (every field, each table joined by its
 * foreign key; no ORDER BY or LIMIT, which the service adds), and the metadata (every table with its role, the
 * Join table of a many-to-many resource included). Pure.
 */
import type { GeneratedResource, GeneratedTable } from './generated-resource';
import { type Quote, sqlName } from './sql-names';

/** How the definitions name the tables of one schema on one engine. */
export interface SqlNaming {
  readonly quote: Quote;
  /** A table as `<table name>` names it. */
  reference(table: string): string;
  /** The schema the FROM clause qualifies tables with; none when it is the connection's own. */
  readonly schema?: string;
}

const width = 110;

/** Text as XML element content: quotes stay as they are, so a query reads as SQL. */
function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** `name="value"`, in single quotes when the value holds a double quote and no single one (`"Gift Card"`). */
function attribute(name: string, value: string): string {
  const text = escapeXml(value);
  if (text.includes('"') && !text.includes("'")) return `${name}='${text}'`;
  return `${name}="${text.replace(/"/g, '&quot;')}"`;
}

/** `pieces` joined by spaces into lines of at most `width` characters (longer pieces stand alone). */
function wrap(pieces: readonly string[], first: string, indent: string): string[] {
  const lines = [first];
  for (const piece of pieces) {
    const last = lines[lines.length - 1] as string;
    const empty = last === first || last === indent;
    if (!empty && last.length + 1 + piece.length > width) lines.push(indent + piece);
    else lines[lines.length - 1] = empty ? last + piece : `${last} ${piece}`;
  }
  return lines;
}

function documentation(resource: GeneratedResource): string[] {
  const tableComments = resource.tables.flatMap((t) =>
    t.table.comment
      ? [resource.kind === 'flat' && t.role === 'Parent' ? t.table.comment : `${t.table.table}: ${t.table.comment}`]
      : [],
  );
  const columnComments = resource.fields.flatMap((f) => {
    const comment = f.table.columnComments[f.column];
    return comment ? [`${f.label}: ${comment}`] : [];
  });
  const sentences = [...tableComments, resource.about, ...columnComments].map((s) => s.trim().replace(/\s+/g, ' '));
  return sentences.flatMap((s) => wrap(escapeXml(s).split(' '), '    ', '    '));
}

function query(resource: GeneratedResource, naming: SqlNaming): string[] {
  const name = (t: GeneratedTable) => sqlName(t.table.table, naming.quote);
  const from = (t: GeneratedTable) => (naming.schema ? `${sqlName(naming.schema, naming.quote)}.${name(t)}` : name(t));
  const fields = resource.fields.map((f) => {
    const column = `${sqlName(f.table.table, naming.quote)}.${sqlName(f.column, naming.quote)}`;
    return f.label === f.column ? column : `${column} as ${sqlName(f.label, naming.quote)}`;
  });
  const [parent, ...joined] = resource.tables;
  const joins = joined.map((t) => {
    const line = `    left join ${from(t)} on ${joinCondition(t, naming.quote).join(' and ')}`;
    return line.length <= width
      ? line
      : `    left join ${from(t)} on ${joinCondition(t, naming.quote).join('\n      and ')}`;
  });
  const list = fields.map((f, i) => (i < fields.length - 1 ? `${f},` : f));
  return [...wrap(list, '    select ', '      '), `    from ${parent ? from(parent) : ''}`, ...joins].map(escapeXml);
}

/** `owner.column = referenced.column`, one per column of the foreign key a table joins by. */
function joinCondition(t: GeneratedTable, quote: Quote): string[] {
  if (!t.link) throw new Error(`table ${t.table.table} (${t.role}) joins by no foreign key`);
  const { key, owner } = t.link;
  const column = (table: string, name: string | undefined) => `${sqlName(table, quote)}.${sqlName(name ?? '', quote)}`;
  return key.columns.map((c, i) => `${column(owner.table, c)} = ${column(key.refTable, key.refColumns[i])}`);
}

function tableElement(t: GeneratedTable, naming: SqlNaming): string {
  const names = t.names ? ` ${attribute('rowAlias', t.names.row)} ${attribute('rowSetAlias', t.names.rows)}` : '';
  return `    <table ${attribute('name', naming.reference(t.table.table))} role="${t.role}"${names}/>`;
}

export function writeDefinition(resource: GeneratedResource, naming: SqlNaming): string {
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<rs:sqlResource xmlns:rs="http://restsql.org/schema">',
    '  <documentation>',
    ...documentation(resource),
    '  </documentation>',
    '  <query>',
    ...query(resource, naming),
    '  </query>',
    '  <metadata>',
    ...resource.tables.map((t) => tableElement(t, naming)),
    '  </metadata>',
    '</rs:sqlResource>',
    '',
  ].join('\n');
}
