/**
 * `npm run validate`: loads every definition under DEFINITIONS_DIR (or DEFINITIONS_S3) against the configured
 * database exactly as the service would, prints one line per resource (OK, or the file and the problem), and
 * exits 1 if any failed or none was found. Database selection as in the service (DATABASE_URL, D5).
 */
import { config } from '../lib/config';
import { closeDatabases } from '../lib/db/select-database';
import { definitionSource } from '../lib/definitions/resolve-resource';
import { validateDefinitions } from '../lib/definitions/validate-definitions';

async function main(): Promise<number> {
  const settings = config();
  const root = definitionSource(settings).root;
  const results = await validateDefinitions(settings);
  await closeDatabases();
  if (results.length === 0) {
    console.log(`No definitions found under ${root}`);
    return 1;
  }
  const width = Math.max(...results.map((r) => r.name.length));
  // one line per resource: SQL in a message may span lines
  for (const r of results)
    console.log(`${r.ok ? 'OK  ' : 'FAIL'}  ${r.name.padEnd(width)}  ${r.detail.replace(/\s+/g, ' ')}`);
  const failed = results.filter((r) => !r.ok).length;
  console.log(`${results.length - failed} of ${results.length} definitions under ${root} are valid`);
  return failed === 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  },
);
