/**
 * serverless.yml's routes, from the service's one route table (lib/routes.json): `events` of each function
 * (`${file(./scripts/deploy/route-events.js):read}`) and the routes that ask for no token (`openRoutes`), so the
 * template, the server mode and the log all route with the same rows.
 */
const table = require('../../lib/routes.json');

const functions = [...new Set(table.map((row) => row.function))];
const events = Object.fromEntries(
  functions.map((name) => [name, table.filter((row) => row.function === name).map((row) => ({ httpApi: row.route }))]),
);

module.exports = { ...events, openRoutes: table.filter((row) => !row.signIn).map((row) => row.route) };
