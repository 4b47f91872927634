/**
 * `npm run events:listen -- [PORT]`: a webhook receiver to watch change events arrive (docs/events.md). It listens on
 * 127.0.0.1:PORT (default 4000), checks each delivery's Standard Webhooks signature with EVENTS_WEBHOOK_SECRET, as a
 * consumer should, and prints one line per event: its type, subject and data. A delivery whose signature does not
 * hold is refused (400) and said so. For trying the service out, not for production.
 */
import { createServer } from 'node:http';
import { Webhook } from 'standardwebhooks';
import { requestText } from './request-text';

function main(): void {
  const secret = process.env.EVENTS_WEBHOOK_SECRET;
  const port = Number(process.argv[2] ?? 4000);
  if (!secret || !Number.isInteger(port) || port < 1 || port > 65535) {
    console.error('usage: EVENTS_WEBHOOK_SECRET=whsec_... npm run events:listen -- [PORT]');
    process.exit(2);
  }
  const verifier = new Webhook(secret);
  const server = createServer((request, response) => {
    void requestText(request).then((body) => {
      const headers = Object.fromEntries(Object.entries(request.headers).map(([k, v]) => [k, String(v)]));
      try {
        const event = verifier.verify(body, headers) as { type: string; subject: string; data: unknown };
        console.log(`${event.type} ${event.subject} ${JSON.stringify(event.data)}`);
        response.writeHead(204).end();
      } catch (error) {
        console.log(`refused a delivery: ${error instanceof Error ? error.message : String(error)}`);
        response.writeHead(400).end();
      }
    });
  });
  server.listen(port, '127.0.0.1', () => {
    console.log(`Listening for change events on http://localhost:${port}/ (signatures checked). Stop with Ctrl-C.`);
  });
}

main();
