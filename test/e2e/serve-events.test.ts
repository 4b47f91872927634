/**
 * Change events in the server mode, end to end: `npm run serve` on the demo bookstore (whose BookReviews announces
 * its changes) with a webhook set, exercised over HTTP. A review posted, changed and deleted arrives at the webhook
 * as three signed CloudEvents, in order, the first one after the receiver failed it once; the process logs each
 * drain; a write that fails announces nothing.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { startEmbeddedDatabase } from '../../scripts/start';
import { freePort, root, serviceEnv } from '../support/local-process';
import { type Receiver, startReceiver, testSecret } from '../support/webhook-receiver';

let database: Awaited<ReturnType<typeof startEmbeddedDatabase>>;
let receiver: Receiver;
let child: ChildProcess;
let output = '';
let base: string;

async function waitFor(check: () => boolean, what: string, ms = 30_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

beforeAll(async () => {
  database = await startEmbeddedDatabase();
  let failedOnce = false;
  // the first delivery is refused once: the drain tries it again after its back-off
  receiver = await startReceiver(() => {
    if (failedOnce) return 204;
    failedOnce = true;
    return 503;
  });
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  const env = serviceEnv({
    PORT: String(port),
    HOST: '127.0.0.1',
    EVENTS_WEBHOOK_URL: receiver.url,
    EVENTS_WEBHOOK_SECRET: testSecret,
    EVENTS_SOURCE: 'https://books.example.com',
    LOG_LEVEL: 'INFO',
    ...database.env,
  });
  child = spawn('npm', ['run', '--silent', 'serve'], { cwd: root, env, detached: true });
  const collect = (chunk: Buffer) => {
    output += chunk.toString();
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  await waitFor(() => output.includes('listening on') || child.exitCode !== null, 'npm run serve');
}, 120_000);

afterAll(async () => {
  if (child?.pid && child.exitCode === null) {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    process.kill(-child.pid, 'SIGTERM');
    await exited;
  }
  await receiver?.close();
  await database?.stop();
});

async function send(method: string, path: string, body?: unknown) {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { accept: 'application/json', 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  const json = response.headers.get('content-type')?.includes('json') ? JSON.parse(text) : {};
  return { status: response.status, json: json as Record<string, unknown> };
}

it('says as it starts which resources announce their changes, and where to', async () => {
  // printed with the lines after "listening on", which may come in a later chunk
  await waitFor(() => output.includes('Change events of'), 'the notice');
  expect(output).toContain(`Change events of BookReviews: published to webhook ${receiver.url} (docs/events.md).`);
});

it('a review posted, changed and deleted arrives as three signed CloudEvents, in order, after a refusal', async () => {
  const posted = await send('POST', '/res/BookReviews/2', {
    reviews: [{ reviewer: 'Ann', rating: 5, body: 'Lovely', reviewed_at: '2026-12-01 10:00:00' }],
  });
  expect(posted.status).toBe(200);
  const id = ((posted.json.books as { reviews: { review_id: number }[] }[])[0]?.reviews[0]?.review_id ?? 0) as number;
  expect((await send('PUT', '/res/BookReviews/2', { reviews: [{ review_id: id, rating: 3 }] })).status).toBe(200);
  expect((await send('DELETE', '/res/BookReviews/2', { reviews: [{ review_id: id }] })).status).toBe(200);
  // a write that fails (a rating the definition refuses) announces nothing
  expect((await send('PUT', '/res/BookReviews/2', { reviews: [{ review_id: 1, rating: 9 }] })).status).toBe(400);
  await waitFor(() => receiver.delivered().length >= 3, 'three deliveries');
  expect(receiver.refused).toEqual([]);
  const delivered = receiver.receipts.filter((r) => r.answered < 300);
  expect(
    delivered.map((r) => [
      r.event.type,
      r.row,
      (r.event.data as { after: { rating?: number } | null }).after?.rating ?? null,
    ]),
  ).toEqual([
    ['BookReviews.inserted', String(id), 5],
    ['BookReviews.updated', String(id), 3],
    ['BookReviews.deleted', String(id), null],
  ]);
  expect(delivered[0]?.event).toMatchObject({
    source: 'https://books.example.com/res/BookReviews',
    specversion: '1.0',
  });
  expect(delivered[1]?.event.data).toMatchObject({ before: { rating: 5 }, after: { rating: 3 } });
  // the first delivery was refused once, and the same event (same id) was delivered on the next attempt
  expect(receiver.receipts[0]).toMatchObject({ answered: 503, id: delivered[0]?.id });
  await waitFor(() => output.includes('"message":"events drain"') && output.includes('"published":'), 'the log');
  expect(output).toMatch(/"message":"events drain".*"database":"bookstore".*"failed":1/);
});
