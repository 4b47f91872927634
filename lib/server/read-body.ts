/**
 * Reads a request body into memory up to a limit, and no further: a Content-Length over the limit is refused
 * before any byte is read, and a body that grows past it (chunked) stops being read at the first chunk over.
 * The caller answers 413 and closes the connection, so the rest is never read either.
 */
import type { IncomingMessage } from 'node:http';

export type BodyRead = { readonly kind: 'body'; readonly body: Buffer } | { readonly kind: 'too-large' };

const none: BodyRead = { kind: 'body', body: Buffer.alloc(0) };

export function readBody(request: IncomingMessage, limit: number): Promise<BodyRead> {
  const length = request.headers['content-length'];
  // without Content-Length and Transfer-Encoding a request has no body (RFC 9112 6.3): most GETs; nothing to read
  if (length === undefined && request.headers['transfer-encoding'] === undefined) return Promise.resolve(none);
  const declared = Number(length);
  if (Number.isFinite(declared) && declared > limit) return Promise.resolve({ kind: 'too-large' });
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        request.off('data', onData);
        request.pause();
        resolve({ kind: 'too-large' });
        return;
      }
      chunks.push(chunk);
    };
    request.on('data', onData);
    request.once('end', () => resolve({ kind: 'body', body: Buffer.concat(chunks, size) }));
    request.once('error', reject);
  });
}
