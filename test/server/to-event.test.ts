/** The node:http request → HTTP API v2 event conversion of the server mode, read back through fromEvent. Pure. */
import { fromEvent } from '../../lib/http/from-event';
import { toEvent } from '../../lib/server/to-event';

const head = (url: string, headers: Record<string, string | string[]> = {}) => ({
  method: 'post',
  url,
  headers,
  httpVersion: '1.1',
  remoteAddress: '127.0.0.1',
});

it('keeps the raw path and the raw query string, repeated keys and escapes intact', () => {
  const event = toEvent(head('/res/Book%20X/1?price=%3E5&price=%3C10&title=a%26b'), Buffer.alloc(0));
  expect([event.rawPath, event.rawQueryString]).toEqual(['/res/Book%20X/1', 'price=%3E5&price=%3C10&title=a%26b']);
  expect(event.requestContext.http.method).toBe('POST');
  expect(event.requestContext.requestId).toMatch(/^[0-9a-f-]{36}$/);
  expect(event.body).toBeUndefined();
  expect(fromEvent(event)).toMatchObject({ method: 'POST', path: '/res/Book%20X/1', rawQuery: event.rawQueryString });
});

it('passes text bodies as text and other bodies in base64, which fromEvent decodes', () => {
  const form = toEvent(head('/res/A', { 'content-type': 'application/x-www-form-urlencoded' }), Buffer.from('a=é'));
  expect([form.body, form.isBase64Encoded]).toEqual(['a=é', false]);
  const bytes = Buffer.from([0xff, 0x00, 0x41]);
  const binary = toEvent(head('/res/A', { 'content-type': 'application/octet-stream' }), bytes);
  expect([binary.body, binary.isBase64Encoded]).toEqual([bytes.toString('base64'), true]);
  const xml = toEvent(head('/res/A', { 'content-type': 'application/vnd.x+xml; charset=utf-8' }), Buffer.from('<a/>'));
  expect([xml.body, xml.isBase64Encoded]).toEqual(['<a/>', false]);
  expect(fromEvent(form).body).toBe('a=é');
});

it('joins repeated headers with commas and moves cookies apart, as API Gateway does', () => {
  const event = toEvent(
    head('/res/A', { accept: 'application/json', 'x-many': ['1', '2'], cookie: 'a=1; b=2' }),
    Buffer.alloc(0),
  );
  expect(event.headers).toEqual({ accept: 'application/json', 'x-many': '1,2' });
  expect(event.cookies).toEqual(['a=1', 'b=2']);
});
