/**
 * readBody on a real node:http server: a request without Content-Length and Transfer-Encoding has no body
 * (nothing is read); a declared or chunked body is read whole up to the limit; over it is `too-large`; a body
 * whose bytes do not fit in the budget of bytes in flight is `busy`, and every byte read was taken from it first.
 */
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createByteBudget } from '../../lib/server/byte-budget';
import { type BodyRead, readBody } from '../../lib/server/read-body';

const limit = 10;
/** The bytes in flight for all requests; a request header `x-budget` sets it for one (a fresh budget). */
const budgetOf = (header: string | string[] | undefined) => createByteBudget(Number(header ?? 1000));
const taken: number[] = [];
let server: Server;
let port: number;

beforeAll(async () => {
  server = createServer((request, response) => {
    const budget = budgetOf(request.headers['x-budget']);
    readBody(request, limit, (bytes) => budget.take(bytes)).then((read: BodyRead) => {
      taken.push(budget.inUse());
      const answer = read.kind === 'body' ? `body:${read.body.toString('utf8')}` : read.kind;
      response.writeHead(200, { Connection: read.kind === 'body' ? 'keep-alive' : 'close' }).end(answer);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

/** Sends `chunks` (written one by one: chunked unless a Content-Length header is given). */
function send(method: string, headers: Record<string, string>, chunks: string[] = []): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, method, path: '/', headers }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        text += chunk;
      });
      response.on('end', () => resolve(text));
    });
    req.on('error', reject);
    for (const chunk of chunks) req.write(chunk);
    req.end();
  });
}

interface Case {
  readonly name: string;
  readonly method: string;
  readonly headers: Record<string, string>;
  readonly chunks: string[];
  readonly expected: string;
}

it.each<Case>([
  {
    name: 'a GET without Content-Length or Transfer-Encoding',
    method: 'GET',
    headers: {},
    chunks: [],
    expected: 'body:',
  },
  {
    name: 'a declared body',
    method: 'POST',
    headers: { 'Content-Length': '5' },
    chunks: ['a=b&c'],
    expected: 'body:a=b&c',
  },
  { name: 'a chunked body', method: 'POST', headers: {}, chunks: ['a=', 'b'], expected: 'body:a=b' },
  {
    name: 'a declared body over the limit',
    method: 'POST',
    headers: { 'Content-Length': '11' },
    chunks: ['x'.repeat(11)],
    expected: 'too-large',
  },
  {
    name: 'a chunked body over the limit',
    method: 'POST',
    headers: {},
    chunks: ['x'.repeat(6), 'x'.repeat(6)],
    expected: 'too-large',
  },
  {
    name: 'a declared body larger than the budget left',
    method: 'POST',
    headers: { 'Content-Length': '5', 'x-budget': '4' },
    chunks: ['a=b&c'],
    expected: 'busy',
  },
  {
    name: 'a chunked body that outgrows the budget',
    method: 'POST',
    headers: { 'x-budget': '4' },
    chunks: ['a=b', '&c'],
    expected: 'busy',
  },
])('$name', async ({ method, headers, chunks, expected }) => {
  expect(await send(method, headers, chunks)).toBe(expected);
});

it('takes from the budget every byte it keeps, before keeping it', async () => {
  taken.length = 0;
  expect(await send('POST', { 'Content-Length': '5' }, ['a=b&c'])).toBe('body:a=b&c');
  expect(await send('POST', {}, ['a=', 'b'])).toBe('body:a=b');
  expect(await send('GET', {})).toBe('body:');
  expect(taken).toEqual([5, 3, 0]);
});
