/**
 * What esbuild defines in the function bundles (serverless.yml's custom.esbuild.define): with
 * --param="engine=postgres" (or mysql), RRS_BUNDLE_ENGINE is that engine, so every other engine record's import of
 * its driver (lib/db/engines/registry.ts) is dead code and esbuild leaves those drivers out of the bundle (see
 * engine.js). With engine=both or none, nothing: every driver is bundled, each loaded when its database is first
 * used. A wrong value defines nothing here and stops the package in deploy-settings.js.
 */
const { singleEngine } = require('./engine');

module.exports = async ({ resolveVariable }) => {
  const engine = singleEngine(await resolveVariable("param:engine, ''"));
  return engine ? { 'process.env.RRS_BUNDLE_ENGINE': JSON.stringify(engine.name) } : {};
};
