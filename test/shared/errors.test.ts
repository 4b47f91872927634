/** The typed errors keep the error they stand for (for the log), and anything untyped answers as internal_error. */
import { TokenParserError } from '@streamparser/json';
import { classifyDbError } from '../../lib/db/classify-error';
import { engineNamed } from '../../lib/db/engines/registry';
import { BadRequestError, ServiceError, toServiceError } from '../../lib/errors';
import { readJsonBody } from '../../lib/request/read-json-body';

it('a driver error classified keeps the driver error as its cause', () => {
  const driverError = Object.assign(new Error('duplicate key'), { code: '23505' });
  const classified = classifyDbError(engineNamed('postgres').errors, driverError, { text: 'INSERT ...', params: [] });
  expect(classified.code).toBe('unique_violation');
  expect(classified.cause).toBe(driverError);
});

it('a parser error becomes a 400 that keeps it as its cause', () => {
  let thrown: unknown;
  try {
    readJsonBody('{"a": }');
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toBeInstanceOf(BadRequestError);
  expect((thrown as BadRequestError).cause).toBeInstanceOf(TokenParserError);
});

it('toServiceError keeps a typed error and wraps anything else as internal_error, keeping it as the cause', () => {
  const typed = new BadRequestError('bad_body', 'x');
  expect(toServiceError(typed)).toBe(typed);
  const surprise = new TypeError('boom');
  const wrapped = toServiceError(surprise);
  expect(wrapped).toBeInstanceOf(ServiceError);
  expect({ status: wrapped.status, code: wrapped.code, message: wrapped.message }).toEqual({
    status: 500,
    code: 'internal_error',
    message: 'Internal error: the service failed unexpectedly; the details are in its log',
  });
  expect(wrapped.cause).toBe(surprise);
});
