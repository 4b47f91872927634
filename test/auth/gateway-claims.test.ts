/**
 * Sign-in on Lambda from a token API Gateway's JWT authorizer verified, read without jose (the Lambda bundles leave
 * it out): its claims are the JSON object in the token's middle part. Anything else is the same 401 as any
 * malformed token. No keys are fetched, so no IO.
 */
import { authenticate } from '../../lib/auth/authenticate';
import { readConfig } from '../../lib/config';
import { UnauthenticatedError } from '../../lib/errors';

const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const header = part({ alg: 'RS256', kid: 'k1' });
const issuer = 'https://issuer.example.com/';
const audience = 'rrs-api';
const settings = readConfig({ AUTH_ISSUER: issuer, AUTH_AUDIENCE: audience, AWS_LAMBDA_FUNCTION_NAME: 'rrs-read' });
const now = Math.floor(Date.now() / 1000);
const good = { iss: issuer, aud: audience, exp: now + 300, sub: 'u1', roles: ['reader'] };
/** Signs in on Lambda with a token the gateway's authorizer passed, which is read without jose. */
const signInWith = (token: string) =>
  authenticate({ authorization: `Bearer ${token}`, verifiedByGateway: true }, settings);
const signIn = (claims: Record<string, unknown>) => signInWith(`${header}.${part(claims)}.c2ln`);

describe('the claims of a token the gateway verified', () => {
  it('reads the claims of a signed token, arrays and nested objects intact', async () => {
    expect(settings.onLambda).toBe(true);
    const claims = { ...good, roles: ['reader', 'writer'], realm_access: { roles: ['admin'] } };
    await expect(signIn(claims)).resolves.toEqual({ signedIn: true, roles: ['reader', 'writer'], claims });
  });

  it.each([
    ['one part', 'abc'],
    ['two parts', `${header}.${part(good)}`],
    ['four parts', `${header}.${part(good)}.c2ln.more`],
    ['a payload that is not JSON', `${header}.bm90IGpzb24.c2ln`],
    ['a payload that is an array', `${header}.${part(['sub'])}.c2ln`],
    ['a payload that is null', `${header}.${part(null)}.c2ln`],
    ['a payload that is a string', `${header}.${part('sub')}.c2ln`],
  ])('refuses %s with the 401 of a malformed token', async (_case, token) => {
    const refused = signInWith(token);
    await expect(refused).rejects.toBeInstanceOf(UnauthenticatedError);
    await expect(refused).rejects.toMatchObject({
      status: 401,
      code: 'unauthenticated',
      message: 'The token is malformed: it is not a signed JSON Web Token',
      headers: { 'WWW-Authenticate': expect.stringContaining('error="invalid_token"') },
    });
  });
});

/**
 * On Lambda, a request that carries the authorizer's claims is signed in from its token without jose; the token's
 * issuer, audience, expiry and not-before are checked all the same, so an invocation that did not come through
 * the authorizer with a token for this API is refused as `verify` would refuse it.
 */
describe('authenticate on Lambda, with the gateway’s verdict', () => {
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
