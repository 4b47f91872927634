/**
 * The server mode reads a node:http request straight into an HttpRequest: it must be the request Lambda reads from
 * the API Gateway event built for it (fromEvent of toEvent), for every kind of target, header and body. Pure.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { fromEvent } from '../../lib/http/from-event';
import { toEvent } from '../../lib/server/to-event';
import { toHttpRequest } from '../../lib/server/to-http-request';

const cases: [string, string, string, IncomingHttpHeaders, Buffer][] = [
  ['a read by key', 'get', '/res/Book/1', { accept: 'application/json', host: 'x' }, Buffer.alloc(0)],
  ['a raw query with repeats and escapes', 'GET', '/res/B%20X?price=%3E5&price=%3C10&t=a%26b', {}, Buffer.alloc(0)],
  ['an empty query', 'GET', '/res/Book?', {}, Buffer.alloc(0)],
  ['a form body', 'post', '/res/A', { 'content-type': 'application/x-www-form-urlencoded' }, Buffer.from('a=é')],
  ['an XML body', 'PUT', '/res/A', { 'content-type': 'application/vnd.x+xml; charset=utf-8' }, Buffer.from('<a/>')],
  ['an octet stream', 'POST', '/res/A', { 'content-type': 'application/octet-stream' }, Buffer.from([0xff, 0, 0x41])],
  ['a body without a type', 'POST', '/res/A', {}, Buffer.from('name=x')],
  [
    'repeated headers and cookies',
    'GET',
    '/',
    { 'x-many': ['1', '2'], cookie: 'a=1; b=2', accept: '*/*' },
    Buffer.alloc(0),
  ],
  ['a HEAD with a method override', 'head', '/res/A', { 'x-http-method-override': 'DELETE' }, Buffer.alloc(0)],
];

it.each(cases)('reads %s as Lambda reads its event', (_name, method, url, headers, body) => {
  const head = { method, url, headers, httpVersion: '1.1', remoteAddress: '127.0.0.1' };
  expect(toHttpRequest(head, body)).toEqual(fromEvent(toEvent(head, body)));
});
