/**
 * Reads a request body into memory up to a limit, and no further: a Content-Length over the limit is refused
 * before any byte is read, and a body that grows past it (chunked) stops being read at the first chunk over.
 * Every byte is taken from the server's budget of bytes in flight before it is kept (a declared length at once,
 * a chunked body chunk by chunk); what does not fit stops the reading too. The caller answers (413 or 503) and
 * closes the connection, so the rest is never read, and gives the bytes back once the request is answered.
 */
import type { IncomingMessage } from 'node:http';

export type BodyRead =
  | { readonly kind: 'body'; readonly body: Buffer }
  | { readonly kind: 'too-large' }
  | { readonly kind: 'busy' };

const none: BodyRead = { kind: 'body', body: Buffer.alloc(0) };

/**
 * `take(bytes)`: takes bytes from the budget of bytes in flight, or says they do not fit. `beforeReading` is called
 * once the declared length was found to fit, before the first byte is read (to send `100 Continue`).
 */
export function readBody(
  request: IncomingMessage,
  limit: number,
  take: (bytes: number) => boolean,
  beforeReading: () => void = () => {},
): Promise<BodyRead> {
  const length = request.headers['content-length'];
  // without Content-Length and Transfer-Encoding a request has no body (RFC 9112 6.3): most GETs; nothing to read
  if (length === undefined && request.headers['transfer-encoding'] === undefined) return Promise.resolve(none);
  const declared = Number(length);
  const known = length !== undefined && Number.isFinite(declared);
  if (known && declared > limit) return Promise.resolve({ kind: 'too-large' });
  if (known && !take(declared)) return Promise.resolve({ kind: 'busy' });
  beforeReading();
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const stop = (read: BodyRead) => {
      request.off('data', onData);
      request.pause();
      chunks.length = 0;
      resolve(read);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) return stop({ kind: 'too-large' });
      if (!known && !take(chunk.length)) return stop({ kind: 'busy' });
      chunks.push(chunk);
    };
    request.on('data', onData);
    request.once('end', () => resolve({ kind: 'body', body: Buffer.concat(chunks, size) }));
    request.once('error', reject);
  });
}
