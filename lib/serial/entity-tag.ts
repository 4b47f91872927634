/**
 * A strong entity tag (RFC 9110 8.8.3) of a representation: a digest of its bytes, so two answers carry the same tag
 * exactly when their bodies are the same, whichever way the rows were read. Pure.
 */
import { createHash } from 'node:crypto';

export function entityTag(body: string): string {
  return `"${createHash('sha256').update(body).digest('base64url')}"`;
}
