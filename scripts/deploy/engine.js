/**
 * The database engines a deployment's bundles carry: --param="engine=postgres" (only postgres.js), mysql (only
 * mysql2) or both (the default). One engine keeps the other driver's code out of every function bundle (mysql2
 * and its character sets are ~1 MB minified, postgres.js ~40 KB), which is most of a PostgreSQL bundle's size and
 * cold start. Pure: read by bundle-define.js and bundle-exclude.js (what esbuild leaves out) and by
 * deploy-settings.js (the param's value, and every database URL against it).
 */
const engines = ['postgres', 'mysql', 'both'];
/** The URL schemes of each engine's databases. */
const schemes = { postgres: ['postgres:', 'postgresql:'], mysql: ['mysql:', 'mariadb:'] };
const names = { postgres: 'PostgreSQL', mysql: 'MySQL' };
/** The npm package of each engine's driver. */
const driverPackages = { postgres: 'postgres', mysql: 'mysql2' };

/** 'postgres' or 'mysql' when the param names one engine; undefined for both, none, or a wrong value. */
function singleEngine(value) {
  const engine = String(value ?? '').trim();
  return engine === 'postgres' || engine === 'mysql' ? engine : undefined;
}

/** The driver package a single-engine bundle leaves out, if any. */
function excludedDriver(value) {
  const engine = singleEngine(value);
  if (!engine) return undefined;
  return driverPackages[engine === 'postgres' ? 'mysql' : 'postgres'];
}

/** The param's value, then every parsed URL ({ label, url: URL }) against it; errors go to out.errors. */
function checkEngine(value, urls, out) {
  if (value && !engines.includes(value)) {
    out.errors.push(
      `--param="engine=${value}" is not understood: give postgres (bundle only the PostgreSQL driver), mysql ` +
        '(only the MySQL/MariaDB driver) or both (the default)',
    );
    return;
  }
  const engine = singleEngine(value);
  if (!engine) return;
  for (const { label, url } of urls) {
    if (schemes[engine].includes(url.protocol)) continue;
    const other = engine === 'postgres' ? 'mysql' : 'postgres';
    out.errors.push(
      `${label} is a ${names[other]} URL (${url.protocol}//), but --param="engine=${engine}" leaves the ` +
        `${names[other]} driver out of the bundles, so every request to it would fail. Give ` +
        `--param="engine=${other}" or --param="engine=both", or a ${schemes[engine][0]}// URL`,
    );
  }
}

module.exports = { checkEngine, excludedDriver, singleEngine };
