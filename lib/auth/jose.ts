/**
 * jose, loaded on first use: a service without sign-in never evaluates it, and it is most of the code sign-in adds
 * to a cold start. Types come from `import type`, which costs nothing at run time. The Lambda bundles leave jose out
 * (scripts/deploy/bundle-exclude.js): there API Gateway's JWT authorizer verifies every token and the handler only
 * reads it. A Lambda request that needs it all the same (sign-in turned on by hand, in a deployment packaged without
 * it, so its routes have no authorizer) is a configuration error that says so.
 */
import { ConfigurationError } from '../errors';

export function jose(): typeof import('jose') {
  try {
    return require('jose') as typeof import('jose');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'MODULE_NOT_FOUND') throw error;
    throw new ConfigurationError(
      "Sign-in is on (AUTH_ISSUER is set), but API Gateway's JWT authorizer did not verify this request's token, and the deployed functions leave the token library out: package and deploy with authIssuer and authAudience, which puts the authorizer on every route",
    );
  }
}
