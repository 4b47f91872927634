/**
 * One cold container's first request, for `npm run bench`: a fresh process loads the read handler, serves
 * GET /res/Book/1 once against DATABASE_URL and DEFINITIONS_DIR, and prints one JSON line: the handler's time
 * and the statements the request ran (from its log line, so LOG_LEVEL must be INFO).
 */
import { handler } from '../../handlers/read';
import { closeDatabases } from '../../lib/db/select-database';
import { gatewayEvent, withLogLines } from './handler-calls';

(async () => {
  const started = process.hrtime.bigint();
  const { result: reply, lines } = await withLogLines(() =>
    handler(gatewayEvent({ method: 'GET', path: '/res/Book/1' }) as never),
  );
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  const line = lines.find((l) => l.message === 'request');
  // let the snapshot's check (started beside the request) finish before the pools close
  await new Promise((resolve) => setTimeout(resolve, 50));
  await closeDatabases();
  console.log(JSON.stringify({ status: reply.statusCode, ms, statements: line?.db_calls }));
})().catch((error) => {
  console.error(error);
  process.exit(1);
});
