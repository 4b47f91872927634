/** The whole body of a request to a small local server (a webhook receiver), as text. */
import type { IncomingMessage } from 'node:http';

export function requestText(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => {
      body += chunk;
    });
    request.on('end', () => resolve(body));
    request.on('error', reject);
  });
}
