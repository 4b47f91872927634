/**
 * Table tests of the API Gateway edge: v1 and v2 events normalised into an HttpRequest (raw query kept, repeats
 * kept, headers lower-cased, base64 bodies decoded) and the /res path split. Pure.
 */
import type { APIGatewayProxyEvent, APIGatewayProxyEventV2 } from 'aws-lambda';
import { fromEvent, type HttpRequest } from '../../lib/http/from-event';
import { decodePairs } from '../../lib/request/decode';

interface V2 {
  readonly method: string;
  readonly rawPath: string;
  readonly rawQueryString?: string;
  readonly headers?: Record<string, string>;
  readonly body?: string;
  readonly isBase64Encoded?: boolean;
}

function v2(e: V2): APIGatewayProxyEventV2 {
  return {
    version: '2.0',
    routeKey: '$default',
    rawPath: e.rawPath,
    rawQueryString: e.rawQueryString as string,
    headers: e.headers ?? {},
    requestContext: { http: { method: e.method, path: e.rawPath } },
    body: e.body,
    isBase64Encoded: e.isBase64Encoded ?? false,
  } as unknown as APIGatewayProxyEventV2;
}

interface V1 {
  readonly method: string;
  readonly path: string;
  readonly multi?: Record<string, string[]> | null;
  readonly single?: Record<string, string> | null;
  readonly headers?: Record<string, string> | null;
  readonly body?: string | null;
  readonly isBase64Encoded?: boolean;
}

function v1(e: V1): APIGatewayProxyEvent {
  return {
    httpMethod: e.method,
    path: e.path,
    resource: '/res/{proxy+}',
    headers: e.headers ?? null,
    multiValueHeaders: {},
    queryStringParameters: e.single ?? null,
    multiValueQueryStringParameters: e.multi ?? null,
    pathParameters: null,
    stageVariables: null,
    body: e.body ?? null,
    isBase64Encoded: e.isBase64Encoded ?? false,
    requestContext: {},
  } as unknown as APIGatewayProxyEvent;
}

const base64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');

/** A v2 event after API Gateway's JWT authorizer accepted the token: its claims are in the request context. */
function authorized(event: APIGatewayProxyEventV2, claims: unknown): APIGatewayProxyEventV2 {
  const requestContext = { ...event.requestContext, authorizer: { jwt: { claims, scopes: null } } };
  return { ...event, requestContext } as APIGatewayProxyEventV2;
}

const events: { name: string; event: APIGatewayProxyEvent | APIGatewayProxyEventV2; expected: HttpRequest }[] = [
  {
    name: 'v2 through the JWT authorizer: verified by the gateway',
    event: authorized(v2({ method: 'GET', rawPath: '/res/Book', headers: { Authorization: 'Bearer x.y.z' } }), {
      sub: 'a',
      roles: '[reader]',
    }),
    expected: {
      method: 'GET',
      path: '/res/Book',
      rawQuery: '',
      headers: { authorization: 'Bearer x.y.z' },
      body: undefined,
      verifiedByGateway: true,
    },
  },
  {
    name: 'v2 with an authorizer but no JWT claims: not verified by the gateway',
    event: authorized(v2({ method: 'GET', rawPath: '/res/Book' }), null),
    expected: { method: 'GET', path: '/res/Book', rawQuery: '', headers: {}, body: undefined },
  },
  {
    name: 'v2: raw path and query as sent, headers lower-cased',
    event: v2({
      method: 'GET',
      rawPath: '/res/shop.Book/7',
      rawQueryString: 'price=%3E5&price=%3C10&title=The%25',
      headers: { Accept: 'application/json', 'X-Custom-Header': 'v' },
    }),
    expected: {
      method: 'GET',
      path: '/res/shop.Book/7',
      rawQuery: 'price=%3E5&price=%3C10&title=The%25',
      headers: { accept: 'application/json', 'x-custom-header': 'v' },
      body: undefined,
    },
  },
  {
    name: 'v2: a base64 body is decoded as UTF-8',
    event: v2({
      method: 'post',
      rawPath: '/res/Book',
      rawQueryString: '',
      headers: { 'content-type': 'application/json' },
      body: base64('{"books":[{"title":"Été"}]}'),
      isBase64Encoded: true,
    }),
    expected: {
      method: 'POST',
      path: '/res/Book',
      rawQuery: '',
      headers: { 'content-type': 'application/json' },
      body: '{"books":[{"title":"Été"}]}',
    },
  },
  {
    name: 'v2: a plain body is kept; a missing raw query is empty',
    event: v2({ method: 'PUT', rawPath: '/res/Book', body: 'title=x', headers: {} }),
    expected: { method: 'PUT', path: '/res/Book', rawQuery: '', headers: {}, body: 'title=x' },
  },
  {
    name: 'v1: repeated parameters are kept, names and values re-encoded',
    event: v1({
      method: 'GET',
      path: '/res/Book',
      multi: { price: ['>5', '<10'], title: ['The%'], 'a b': ['x y+z'] },
      single: { price: '<10', title: 'The%', 'a b': 'x y+z' },
      headers: { Accept: 'application/xml', 'Content-Type': 'text/xml' },
    }),
    expected: {
      method: 'GET',
      path: '/res/Book',
      rawQuery: 'price=%3E5&price=%3C10&title=The%25&a%20b=x%20y%2Bz',
      headers: { accept: 'application/xml', 'content-type': 'text/xml' },
      body: undefined,
    },
  },
  {
    name: 'v1: only single-value parameters',
    event: v1({ method: 'DELETE', path: '/res/Book', single: { id: '(1,2)' } }),
    expected: { method: 'DELETE', path: '/res/Book', rawQuery: 'id=(1%2C2)', headers: {}, body: undefined },
  },
  {
    name: 'v1: no parameters, no headers, a base64 body',
    event: v1({
      method: 'POST',
      path: '/dev/res/Book',
      body: base64('<request><book title="x"/></request>'),
      isBase64Encoded: true,
    }),
    expected: {
      method: 'POST',
      path: '/dev/res/Book',
      rawQuery: '',
      headers: {},
      body: '<request><book title="x"/></request>',
    },
  },
];

describe('fromEvent', () => {
  it.each(events)('$name', ({ event, expected }) => {
    expect(fromEvent(event)).toEqual(expected);
  });

  it.each([
    { price: ['>5', '<10'] },
    { id: ['(1,2,3)'], name: ['a\\,b'] },
    { title: ['100%', '50% off'], plus: ['a+b', ' '] },
    { 'na=me&x': ['v=1&w=2'], empty: [''] },
    { unicode: ['Été 😀'], hostile: ["1' or '1'='1"] },
  ] as Record<string, string[]>[])('v1 multi-value parameters %j parse back to the same pairs', (multi) => {
    const { rawQuery } = fromEvent(v1({ method: 'GET', path: '/res/X', multi }));
    const expected = Object.entries(multi).flatMap(([name, values]) => values.map((v) => [name, v]));
    expect(decodePairs(rawQuery)).toEqual(expected);
  });
});
