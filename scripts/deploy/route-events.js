/**
 * serverless.yml's routes, from the service's one route table (lib/routes.json): `events` of each function
 * (`${file(./scripts/deploy/route-events.js):read}`) and the routes that ask for no token (`openRoutes`), so the
 * template, the server mode and the log all route with the same rows. Each GET row brings a HEAD route, as in
 * lib/routes.ts: API Gateway routes a HEAD to HEAD (or ANY) routes only. Not under `serverless offline`, which
 * answers a HEAD from the GET route itself and would log a line for every HEAD route it skips.
 */
const offline = process.argv.includes('offline');
const table = require('../../lib/routes.json').flatMap((row) =>
  row.route.startsWith('GET ') && !offline ? [row, { ...row, route: `HEAD ${row.route.slice(4)}` }] : [row],
);

const functions = [...new Set(table.map((row) => row.function))];
const events = Object.fromEntries(
  functions.map((name) => [name, table.filter((row) => row.function === name).map((row) => ({ httpApi: row.route }))]),
);

module.exports = { ...events, openRoutes: table.filter((row) => !row.signIn).map((row) => row.route) };
