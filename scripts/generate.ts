/**
 * `npm run generate -- --database URL --out DIR [--tables a,b] [--schema s] [--force]`: reads the tables of a
 * PostgreSQL or MySQL/MariaDB schema (lib/db/engines/<engine>: describeSchema) and writes a definition file per
 * resource lib/generate plans, and a privileges stub, into DIR. A file that exists is left as it is unless
 * --force. Prints each file written or skipped and what it wrote no resource for; exits 0 when done, 1 when the
 * database cannot be read or holds none of the tables, 2 for arguments it cannot use (with the usage).
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { readConfig } from '../lib/config';
import type { Engine } from '../lib/db/engine';
import { engineOfUrl } from '../lib/db/engines/registry';
import { maskUrl } from '../lib/db/mask-url';
import { closeDatabases, selectDatabase } from '../lib/db/select-database';
import { generateDefinitions, selectTables } from '../lib/generate/generate-definitions';

const usage =
  'usage: npm run generate -- --database URL --out DIR [--tables a,b] [--schema s] [--force]\n' +
  '  --database  the database to read: postgres://... or mysql://...\n' +
  '  --out       the folder to write the definitions to (created when missing)\n' +
  '  --tables    only these tables, by name, comma-separated (default: every table of the schema)\n' +
  "  --schema    the schema (MySQL: the database) to read (default: the connection's own)\n" +
  '  --force     overwrite files that exist (default: leave them as they are)\n' +
  '  --help      print this text';

interface Options {
  readonly database: string;
  readonly out: string;
  readonly tables?: readonly string[];
  readonly schema?: string;
  readonly force: boolean;
}

class UsageError extends Error {}

function readOptions(args: readonly string[]): Options {
  const { values, positionals } = parseArgs({
    args: [...args],
    options: {
      database: { type: 'string' },
      out: { type: 'string' },
      tables: { type: 'string' },
      schema: { type: 'string' },
      force: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
    allowPositionals: true,
  });
  if (values.help) {
    console.log(usage);
    process.exit(0);
  }
  if (positionals.length > 0) throw new UsageError(`Unexpected argument ${positionals.join(' ')}`);
  if (!values.database) throw new UsageError('--database is missing');
  if (!values.out) throw new UsageError('--out is missing');
  engineOfUrl(values.database);
  const tables = values.tables
    ?.split(',')
    .map((t) => t.trim())
    .filter((t) => t !== '');
  if (tables?.length === 0) throw new UsageError('--tables names no table');
  return {
    database: values.database,
    out: values.out,
    force: values.force === true,
    ...(tables ? { tables } : {}),
    ...(values.schema ? { schema: values.schema } : {}),
  };
}

/** Writes each file that does not exist yet (every file, with --force); prints what it did. */
function writeFiles(files: readonly { path: string; text: string }[], out: string, force: boolean): number {
  mkdirSync(out, { recursive: true });
  let written = 0;
  for (const file of files) {
    const target = path.join(out, file.path);
    if (existsSync(target) && !force) {
      console.log(`skipped ${target} (it exists; --force overwrites it)`);
      continue;
    }
    writeFileSync(target, file.text);
    written++;
    console.log(`wrote   ${target}`);
  }
  return written;
}

async function main(options: Options): Promise<number> {
  const engine: Engine = engineOfUrl(options.database);
  const db = await selectDatabase(readConfig({ DATABASE_URL: options.database }));
  const described = await engine.describeSchema(db, options.schema);
  const schema = selectTables(described, options.tables);
  if (schema.tables.length === 0) {
    console.error(`No tables in schema ${schema.schema} of ${maskUrl(options.database)}`);
    return 1;
  }
  const qualifier = schema.own ? undefined : schema.schema;
  const { files, notes } = generateDefinitions(schema, {
    quote: (name) => engine.sql.quoteIdentifier(name),
    reference: (table) => engine.tableReference(table, qualifier),
    ...(qualifier ? { schema: qualifier } : {}),
  });
  const out = path.resolve(options.out);
  const tables = `${schema.tables.length} table${schema.tables.length === 1 ? '' : 's'}`;
  console.log(`Read ${tables} of schema ${schema.schema} on ${maskUrl(options.database)}`);
  const written = writeFiles(files, out, options.force);
  for (const note of notes) console.log(note);
  console.log(`Wrote ${written} of ${files.length} files to ${out}`);
  return 0;
}

let options: Options;
try {
  options = readOptions(process.argv.slice(2));
} catch (error) {
  console.error(`${error instanceof Error ? error.message : String(error)}\n${usage}`);
  process.exit(2);
}
main(options)
  .then(
    (code) => code,
    (error: unknown) => {
      console.error(error instanceof Error ? error.message : String(error));
      return 1;
    },
  )
  .then(async (code) => {
    await closeDatabases();
    process.exit(code);
  });
