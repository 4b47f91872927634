/**
 * The payload of a token API Gateway's JWT authorizer verified, read without jose (the Lambda bundles leave it out):
 * the JSON object in the token's middle part. Anything else is the same 401 as any malformed token. Pure.
 */
import { gatewayClaims } from '../../lib/auth/authenticate';
import { UnauthenticatedError } from '../../lib/errors';

const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const header = part({ alg: 'RS256', kid: 'k1' });

describe('gatewayClaims', () => {
  it('reads the claims of a signed token, arrays and nested objects intact', () => {
    const claims = { sub: 'u1', roles: ['reader', 'writer'], realm_access: { roles: ['admin'] }, exp: 2000000000 };
    expect(gatewayClaims(`${header}.${part(claims)}.c2ln`)).toEqual(claims);
  });

  it.each([
    ['one part', 'abc'],
    ['two parts', `${header}.${part({ sub: 'u1' })}`],
    ['four parts', `${header}.${part({ sub: 'u1' })}.c2ln.more`],
    ['a payload that is not JSON', `${header}.bm90IGpzb24.c2ln`],
    ['a payload that is an array', `${header}.${part(['sub'])}.c2ln`],
    ['a payload that is null', `${header}.${part(null)}.c2ln`],
    ['a payload that is a string', `${header}.${part('sub')}.c2ln`],
  ])('refuses %s with the 401 of a malformed token', (_case, token) => {
    expect(() => gatewayClaims(token)).toThrow('The token is malformed: it is not a signed JSON Web Token');
    try {
      gatewayClaims(token);
    } catch (error) {
      expect(error).toBeInstanceOf(UnauthenticatedError);
      expect(error).toMatchObject({ status: 401, code: 'unauthenticated' });
      expect((error as UnauthenticatedError).headers?.['WWW-Authenticate']).toContain('error="invalid_token"');
    }
  });
});
