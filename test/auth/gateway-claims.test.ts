/**
 * The payload of a token API Gateway's JWT authorizer verified, read without jose (the Lambda bundles leave it out):
 * the JSON object in the token's middle part. Anything else is the same 401 as any malformed token. Pure.
 */
import { authenticate, gatewayClaims } from '../../lib/auth/authenticate';
import { readConfig } from '../../lib/config';
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

/**
 * On Lambda, a request that carries the authorizer's claims is signed in from its token without jose; the token's
 * issuer, audience, expiry and not-before are checked all the same, so an invocation that did not come through
 * the authorizer with a token for this API is refused as `verify` would refuse it.
 */
describe('authenticate on Lambda, with the gateway’s verdict', () => {
  const issuer = 'https://issuer.example.com/';
  const audience = 'rrs-api';
  const settings = readConfig({ AUTH_ISSUER: issuer, AUTH_AUDIENCE: audience, AWS_LAMBDA_FUNCTION_NAME: 'rrs-read' });
  const now = Math.floor(Date.now() / 1000);
  const good = { iss: issuer, aud: audience, exp: now + 300, sub: 'u1', roles: ['reader'] };
  const signIn = (claims: Record<string, unknown>) =>
    authenticate({ authorization: `Bearer ${header}.${part(claims)}.c2ln`, verifiedByGateway: true }, settings);

  it('signs in a token for this API', async () => {
    expect(settings.onLambda).toBe(true);
    await expect(signIn(good)).resolves.toMatchObject({ signedIn: true, roles: ['reader'], claims: good });
    await expect(signIn({ ...good, aud: ['other', audience] })).resolves.toMatchObject({ signedIn: true });
    await expect(signIn({ ...good, exp: now - 10, nbf: now + 10 })).resolves.toMatchObject({ signedIn: true });
  });

  it.each([
    ['another issuer', { ...good, iss: 'https://evil.example.com/' }, `The token was not issued by ${issuer}`],
    ['no issuer', { ...good, iss: undefined }, `The token was not issued by ${issuer}`],
    ['another audience', { ...good, aud: 'other-api' }, `The token's audience does not include ${audience}`],
    ['audiences without this one', { ...good, aud: ['a', 'b'] }, `The token's audience does not include ${audience}`],
    ['no audience', { ...good, aud: undefined }, `The token's audience does not include ${audience}`],
    ['no expiry', { ...good, exp: undefined }, 'The token has no expiry (exp)'],
    ['an expiry that is no number', { ...good, exp: String(now + 300) }, 'The token has no expiry (exp)'],
    ['an expiry past the clock skew', { ...good, exp: now - 31 }, 'The token has expired'],
    ['a not-before beyond the clock skew', { ...good, nbf: now + 60 }, 'The token is not valid yet (nbf)'],
  ])('refuses %s with a 401', async (_case, claims, message) => {
    const refused = signIn(claims);
    await expect(refused).rejects.toBeInstanceOf(UnauthenticatedError);
    await expect(refused).rejects.toMatchObject({ status: 401, code: 'unauthenticated', message });
  });
});
