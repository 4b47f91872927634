/** The server mode's own settings from its environment: defaults, each variable, and every value refused. Pure. */
import { serverSettings } from '../../lib/server/server-settings';

const maxBody = 5 * 1024 * 1024;

it('has defaults for all of them', () => {
  expect(serverSettings({}, maxBody)).toEqual({
    port: 3000,
    host: '0.0.0.0',
    headersTimeoutMs: 10_000,
    requestTimeoutMs: 30_000,
    maxConnections: 500,
    bodyBytesInFlight: 64 * 1024 * 1024,
    shutdownGraceMs: 25_000,
  });
});

it('reads each variable', () => {
  const env = {
    PORT: '0',
    HOST: '127.0.0.1',
    HEADERS_TIMEOUT_MS: '2000',
    REQUEST_TIMEOUT_MS: '5000',
    MAX_CONNECTIONS: '20',
    MAX_BODY_BYTES_IN_FLIGHT: String(maxBody),
    SHUTDOWN_GRACE_MS: '0',
  };
  expect(serverSettings(env, maxBody)).toEqual({
    port: 0,
    host: '127.0.0.1',
    headersTimeoutMs: 2000,
    requestTimeoutMs: 5000,
    maxConnections: 20,
    bodyBytesInFlight: maxBody,
    shutdownGraceMs: 0,
  });
});

it.each([
  [{ PORT: '65536' }, 'PORT must be an integer from 0 to 65535, got "65536"'],
  [{ PORT: 'http' }, 'PORT must be an integer from 0 to 65535, got "http"'],
  [{ HEADERS_TIMEOUT_MS: '0' }, 'HEADERS_TIMEOUT_MS must be a positive integer, got "0"'],
  [{ REQUEST_TIMEOUT_MS: '1.5' }, 'REQUEST_TIMEOUT_MS must be a positive integer, got "1.5"'],
  [{ MAX_CONNECTIONS: '-1' }, 'MAX_CONNECTIONS must be a positive integer, got "-1"'],
  [{ SHUTDOWN_GRACE_MS: 'soon' }, 'SHUTDOWN_GRACE_MS must be a non-negative integer, got "soon"'],
  [
    { HEADERS_TIMEOUT_MS: '40000' },
    'HEADERS_TIMEOUT_MS (40000) must not be longer than REQUEST_TIMEOUT_MS (30000): the head is part of the request',
  ],
  [
    { MAX_BODY_BYTES_IN_FLIGHT: '1024' },
    `MAX_BODY_BYTES_IN_FLIGHT (1024) must be at least MAX_BODY_BYTES (${maxBody}): a body of the largest size must fit`,
  ],
])('refuses %j', (env, message) => {
  expect(() => serverSettings(env, maxBody)).toThrow(message);
});
