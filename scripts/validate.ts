/**
 * `npm run validate [-- --strict] [-- --snapshot]`: loads every definition under DEFINITIONS_DIR (or
 * DEFINITIONS_S3) against the configured database exactly as the service would, prints one line per resource
 * (OK, WARN: serves reads but refuses some writes, or FAIL with the file and the problem), and exits 1 if any
 * failed (with --strict, also if any warned) or none was found. Database selection as in the service
 * (DATABASE_URL, DATABASE_URL_<NAME>). With --snapshot it then writes the catalog snapshot of every resource that
 * loaded beside the definitions (catalog-snapshot.json), which spares cold containers the catalog queries.
 */
import { config } from '../lib/config';
import { closeDatabases } from '../lib/db/select-database';
import { definitionSource } from '../lib/definitions/resolve-resource';
import { type ValidationResult, validateDefinitions } from '../lib/definitions/validate-definitions';
import { writeCatalogSnapshot } from '../lib/definitions/write-snapshot';

const labels: Record<ValidationResult['status'], string> = { ok: 'OK  ', warning: 'WARN', failed: 'FAIL' };

async function main(strict: boolean, snapshot: boolean): Promise<number> {
  const settings = config();
  const root = definitionSource(settings).root;
  const results = await validateDefinitions(settings);
  const loaded = results.filter((r) => r.status !== 'failed').map((r) => r.name);
  const written = snapshot && loaded.length > 0 ? await writeCatalogSnapshot(settings, loaded) : undefined;
  await closeDatabases();
  if (results.length === 0) {
    console.log(`No definitions found under ${root}`);
    return 1;
  }
  const width = Math.max(...results.map((r) => r.name.length));
  // one line per resource: SQL in a message may span lines
  for (const r of results)
    console.log(`${labels[r.status]}  ${r.name.padEnd(width)}  ${r.detail.replace(/\s+/g, ' ')}`);
  const count = (status: ValidationResult['status']) => results.filter((r) => r.status === status).length;
  const failed = count('failed');
  const warned = count('warning');
  console.log(
    `${results.length - failed} of ${results.length} definitions under ${root} are valid` +
      (warned > 0 ? ` (${warned} with warnings${strict ? ', which --strict counts as failures' : ''})` : ''),
  );
  if (written) {
    const left = failed > 0 ? ` (not the ${failed} that failed: they load from the catalog)` : '';
    console.log(`Wrote the catalog snapshot of ${written.resources} resources${left} to ${written.location}`);
  }
  return failed > 0 || (strict && warned > 0) ? 1 : 0;
}

const args = process.argv.slice(2);
const unknown = args.filter((a) => a !== '--strict' && a !== '--snapshot');
if (unknown.length > 0) {
  console.error(`Unknown argument ${unknown.join(' ')}; usage: npm run validate [-- --strict] [--snapshot]`);
  process.exit(2);
}
main(args.includes('--strict'), args.includes('--snapshot')).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  },
);
