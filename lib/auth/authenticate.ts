/**
 * Sign-in: who is calling. Without AUTH_ISSUER the service runs open. On AWS Lambda, API Gateway's JWT authorizer
 * has verified the bearer token before the handler runs (its claims are in the event), so the token's payload is
 * read without jose (which the Lambda bundles leave out: scripts/deploy/bundle-exclude.js); its `iss`, `aud`,
 * `exp` and `nbf` are checked again all the same, which costs nothing and refuses an invocation that did not come
 * through the authorizer with a token for this API (its signature is the authorizer's to check). Anywhere
 * else (npm start, serverless-offline, tests) the token is verified here with jose:
 * signature from the issuer's keys (cached, fetched again for an unknown key id), `iss`, `aud`, `exp` and `nbf`
 * with a small clock skew, asymmetric algorithms only. The one IO is fetching the keys; the 401s say which check
 * failed and never echo the token.
 */
import type { JWTPayload } from 'jose';
import type { Config } from '../config';
import { ServiceError, UnauthenticatedError } from '../errors';
import { type Caller, openCaller } from './caller';
import { issuerKeys } from './issuer-keys';
import { jose } from './jose';
import { rolesOf } from './roles-of';

/** Never `none`, never HS*: the keys are public, so a symmetric algorithm would let anyone sign. */
const algorithms = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA'];

/** The clock skew tolerated on `exp` and `nbf`, in seconds. */
const clockToleranceS = 30;

/** What sign-in reads of a request. */
export interface Credentials {
  /** The Authorization header. */
  readonly authorization?: string;
  /** API Gateway's JWT authorizer verified the token (its claims are in the event). */
  readonly verifiedByGateway?: boolean;
}

/** The caller: at once when sign-in is off (no promise to make and wait for), else once its token is verified. */
export function authenticate(credentials: Credentials, settings: Config): Caller | Promise<Caller> {
  const { authIssuer: issuer, authAudience: audience } = settings;
  if (!issuer || !audience) return openCaller;
  return signedIn(credentials, settings, issuer, audience);
}

async function signedIn(credentials: Credentials, settings: Config, issuer: string, audience: string): Promise<Caller> {
  const token = bearerToken(credentials.authorization);
  const claims =
    settings.onLambda && credentials.verifiedByGateway
      ? checkGatewayClaims(gatewayClaims(token), issuer, audience, Date.now())
      : await verify(token, issuer, audience, settings);
  return { signedIn: true, roles: rolesOf(claims, settings.authRolesClaim), claims };
}

function bearerToken(header: string | undefined): string {
  if (header === undefined || header.trim() === '')
    throw new UnauthenticatedError('Sign-in required: send the header Authorization: Bearer <token>');
  const match = /^Bearer +([^\s]+)\s*$/i.exec(header);
  if (!match?.[1])
    throw new UnauthenticatedError(
      'The Authorization header must be "Bearer " followed by the token, with nothing else',
      'invalid_request',
    );
  return match[1];
}

async function verify(token: string, issuer: string, audience: string, settings: Config): Promise<JWTPayload> {
  try {
    const { payload } = await jose().jwtVerify(token, issuerKeys(settings.authJwksUrl ?? defaultJwksUrl(issuer)), {
      issuer,
      audience,
      algorithms,
      clockTolerance: clockToleranceS,
      requiredClaims: ['exp'],
    });
    return payload;
  } catch (error) {
    throw rejection(error, issuer, audience);
  }
}

/**
 * The payload of a token API Gateway's authorizer has verified: the JSON object in its middle part (base64url). It
 * is read from the token rather than from the event, because the gateway flattens a claim's array into one string.
 */
function gatewayClaims(token: string): JWTPayload {
  const [, payload, signature, ...rest] = token.split('.');
  if (payload !== undefined && signature !== undefined && rest.length === 0) {
    try {
      const claims: unknown = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
      if (typeof claims === 'object' && claims !== null && !Array.isArray(claims)) return claims as JWTPayload;
    } catch {
      // not JSON: the same answer as any other malformed token
    }
  }
  throw new UnauthenticatedError(malformed, 'invalid_token');
}

const malformed = 'The token is malformed: it is not a signed JSON Web Token';

/**
 * The checks of `verify` that need no key, on the claims of a token the gateway passed: the same issuer,
 * audience, expiry (required) and not-before, with the same clock skew and the same 401s.
 */
function checkGatewayClaims(claims: JWTPayload, issuer: string, audience: string, nowMs: number): JWTPayload {
  const invalid = (message: string) => new UnauthenticatedError(message, 'invalid_token');
  const now = nowMs / 1000;
  if (claims.iss !== issuer) throw invalid(`The token was not issued by ${issuer}`);
  const audiences = Array.isArray(claims.aud) ? claims.aud : [claims.aud];
  if (!audiences.includes(audience)) throw invalid(`The token's audience does not include ${audience}`);
  if (typeof claims.exp !== 'number') throw invalid('The token has no expiry (exp)');
  if (claims.exp <= now - clockToleranceS) throw invalid('The token has expired');
  if (typeof claims.nbf === 'number' && claims.nbf > now + clockToleranceS)
    throw invalid('The token is not valid yet (nbf)');
  return claims;
}

/** Where OpenID Connect issuers such as Cognito and Auth0 publish their keys. */
export function defaultJwksUrl(issuer: string): string {
  return `${issuer.replace(/\/+$/, '')}/.well-known/jwks.json`;
}

/** What a failed check tells the caller: which check, never the token. */
function rejection(error: unknown, issuer: string, audience: string): ServiceError {
  if (error instanceof ServiceError) return error;
  const { errors } = jose();
  const invalid = (message: string) => new UnauthenticatedError(message, 'invalid_token', error);
  if (error instanceof errors.JWTExpired) return invalid('The token has expired');
  if (error instanceof errors.JWTClaimValidationFailed) {
    if (error.claim === 'iss') return invalid(`The token was not issued by ${issuer}`);
    if (error.claim === 'aud') return invalid(`The token's audience does not include ${audience}`);
    if (error.claim === 'nbf') return invalid('The token is not valid yet (nbf)');
    if (error.claim === 'exp') return invalid('The token has no expiry (exp)');
    return invalid(`The token's ${error.claim} claim is invalid: ${error.reason}`);
  }
  if (error instanceof errors.JOSEAlgNotAllowed)
    return invalid(`The token's algorithm is not allowed; allowed: ${algorithms.join(', ')}`);
  if (error instanceof errors.JWSSignatureVerificationFailed)
    return invalid("The token's signature does not verify with the issuer's key");
  if (error instanceof errors.JWKSNoMatchingKey || error instanceof errors.JWKSMultipleMatchingKeys)
    return invalid("No signing key of the issuer matches the token's key id");
  return invalid(malformed);
}
