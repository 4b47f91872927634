/**
 * jose, loaded on first use: a service without sign-in never evaluates it, and it is most of the code sign-in adds
 * to a cold start. Types come from `import type`, which costs nothing at run time. A deployment packaged without
 * sign-in (--param="auth=none") leaves jose out of its bundles (scripts/deploy/bundle-exclude.js): sign-in turned on
 * there afterwards, by setting AUTH_ISSUER by hand, is a configuration error that says so.
 */
import { ConfigurationError } from '../errors';

export function jose(): typeof import('jose') {
  try {
    return require('jose') as typeof import('jose');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'MODULE_NOT_FOUND') throw error;
    throw new ConfigurationError(
      'Sign-in is on (AUTH_ISSUER is set), but this deployment was packaged without it (--param="auth=none"), which leaves the token library out: package and deploy it with authIssuer and authAudience',
    );
  }
}
