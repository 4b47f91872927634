/**
 * A strong entity tag (RFC 9110 8.8.3) of a representation: a digest of its bytes, so two answers carry the same tag
 * exactly when their bodies are the same, whichever way the rows were read. Pure. `hash` digests in one call, without
 * the Hash object `createHash` builds per body.
 */
import { hash } from 'node:crypto';

export function entityTag(body: string): string {
  return `"${hash('sha256', body, 'base64url')}"`;
}
