/**
 * The issuer's signing keys, per JWKS URL, kept while the container is warm: an https:// (or http://) JWKS is
 * fetched by jose, cached, and fetched again when a token names a key id it does not hold; a file: URL (local
 * runs, `npm run token`) is read again whenever the file changes. A JWKS that cannot be fetched or read is the
 * service's failure, a 500, not the caller's.
 */
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { JSONWebKeySet, JWTVerifyGetKey } from 'jose';
import { ServiceError } from '../errors';
import { jose } from './jose';

const keySets = new Map<string, JWTVerifyGetKey>();

export function issuerKeys(url: string): JWTVerifyGetKey {
  let keys = keySets.get(url);
  if (!keys) {
    keys = guarded(url, url.startsWith('file:') ? fileKeys(url) : jose().createRemoteJWKSet(new URL(url)));
    keySets.set(url, keys);
  }
  return keys;
}

/** `file:///abs/jwks.json`, or `file:relative/jwks.json` from the working directory. */
function fileKeys(url: string): JWTVerifyGetKey {
  const file = url.startsWith('file://') ? fileURLToPath(url) : path.resolve(url.slice('file:'.length));
  let loaded: { version: string; keys: JWTVerifyGetKey } | undefined;
  return (header, token) => {
    const stat = statSync(file);
    const version = `${stat.mtimeMs}:${stat.size}`;
    if (loaded?.version !== version) {
      const set = JSON.parse(readFileSync(file, 'utf8')) as JSONWebKeySet;
      loaded = { version, keys: jose().createLocalJWKSet(set) };
    }
    return loaded.keys(header, token);
  };
}

/** No key for the token's key id is the token's fault (jose's error passes); anything else is ours. */
function guarded(url: string, keys: JWTVerifyGetKey): JWTVerifyGetKey {
  return async (header, token) => {
    try {
      return await keys(header, token);
    } catch (error) {
      const { errors } = jose();
      if (error instanceof errors.JWKSNoMatchingKey || error instanceof errors.JWKSMultipleMatchingKeys) throw error;
      const detail = error instanceof Error ? error.message : String(error);
      throw new ServiceError(
        500,
        'auth_unavailable',
        `The issuer's signing keys could not be read from ${url}: ${detail}`,
        {
          cause: error,
        },
      );
    }
  };
}
