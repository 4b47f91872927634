/**
 * The database engines a deployment's bundles carry: --param="engine=NAME" (only that engine's driver, e.g.
 * postgres: only postgres.js; mysql: only mysql2) or both (the default: every driver). One engine keeps the other
 * drivers' code out of every function bundle (mysql2 and its character sets are ~1 MB minified, postgres.js ~40 KB),
 * which is most of a PostgreSQL bundle's size and cold start. The engines are the service's own: each folder of
 * lib/db/engines/ with an engine.json (its label, URL schemes and, under `deploy`, the databases its driver serves
 * and the driver's npm packages), listed in their `listOrder`. Pure: read by bundle-define.js and bundle-exclude.js
 * (what esbuild leaves out), by database-urls.js (the URL schemes) and by deploy-settings.js (the param's value, and
 * every database URL against it).
 */
const { existsSync, readdirSync } = require('node:fs');
const path = require('node:path');

const enginesDir = path.join(__dirname, '..', '..', 'lib', 'db', 'engines');

/** Every engine: { name, label, schemes (with their colon, as URL.protocol has them), databases, driverPackages }. */
const engines = readdirSync(enginesDir, { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && existsSync(path.join(enginesDir, entry.name, 'engine.json')))
  .map((entry) => ({ name: entry.name, ...require(path.join(enginesDir, entry.name, 'engine.json')) }))
  .sort((a, b) => a.listOrder - b.listOrder)
  .map(({ name, label, schemes, deploy }) => ({
    name,
    label,
    schemes: schemes.map((scheme) => `${scheme}:`),
    databases: deploy.databases,
    driverPackages: deploy.driverPackages,
  }));

/** Every URL scheme of a database the service serves, with its colon (`postgres:`). */
const databaseSchemes = engines.flatMap((engine) => engine.schemes);

/** The engine the param names, when it names one; undefined for both, none, or a wrong value. */
function singleEngine(value) {
  const name = String(value ?? '').trim();
  return engines.find((engine) => engine.name === name);
}

/** The driver packages a single-engine bundle leaves out: every other engine's. */
function excludedDrivers(value) {
  const engine = singleEngine(value);
  if (!engine) return [];
  return engines.filter((other) => other !== engine).flatMap((other) => other.driverPackages);
}

/** The param's value, then every parsed URL ({ label, url: URL }) against it; errors go to out.errors. */
function checkEngine(value, urls, out) {
  if (value && value !== 'both' && !engines.some((engine) => engine.name === value)) {
    const choices = engines.map(
      (engine, i) => `${engine.name} (${i === 0 ? 'bundle only' : 'only'} the ${engine.databases} driver)`,
    );
    out.errors.push(`--param="engine=${value}" is not understood: give ${choices.join(', ')} or both (the default)`);
    return;
  }
  const engine = singleEngine(value);
  if (!engine) return;
  for (const { label, url } of urls) {
    if (engine.schemes.includes(url.protocol)) continue;
    const other = engines.find((e) => e.schemes.includes(url.protocol));
    out.errors.push(
      `${label} is a ${other.label} URL (${url.protocol}//), but --param="engine=${engine.name}" leaves the ` +
        `${other.label} driver out of the bundles, so every request to it would fail. Give ` +
        `--param="engine=${other.name}" or --param="engine=both", or a ${engine.schemes[0]}// URL`,
    );
  }
}

module.exports = { checkEngine, databaseSchemes, engines, excludedDrivers, singleEngine };
