/**
 * What esbuild defines in the function bundles (serverless.yml's custom.esbuild.define): with
 * --param="engine=postgres" (or mysql), RRS_BUNDLE_ENGINE is that engine, so lib/db/select-database.ts's branch
 * that loads the other driver is dead code and esbuild leaves the driver out of the bundle (see engine.js). With
 * engine=both or none, nothing: both drivers are bundled, each loaded when its database is first used. A wrong
 * value defines nothing here and stops the package in deploy-settings.js.
 */
const { singleEngine } = require('./engine');

module.exports = async ({ resolveVariable }) => {
  const engine = singleEngine(await resolveVariable("param:engine, ''"));
  return engine ? { 'process.env.RRS_BUNDLE_ENGINE': JSON.stringify(engine) } : {};
};
