/**
 * A webhook receiver of the tests' own, on a free port of 127.0.0.1: it verifies every delivery's signature the
 * Standard Webhooks way (with the `standardwebhooks` library, as a consumer would), checks that it is a CloudEvent
 * whose id is its webhook-id, and answers as the test says: a delivery that fails any check is a test failure.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { requestText } from '../../scripts/request-text';

export const testSecret = `whsec_${Buffer.from('a test secret of the drain').toString('base64')}`;

export interface Receipt {
  readonly id: string;
  /** The CloudEvent's subject: the row's key. */
  readonly row: string;
  readonly event: Record<string, unknown>;
  readonly answered: number;
}

export interface Receiver {
  readonly url: string;
  /** Every delivery whose signature and form held, with what it was answered. */
  readonly receipts: Receipt[];
  /** Why each delivery that did not hold was refused (400). */
  readonly refused: string[];
  /** The ids of the deliveries answered 2xx, in order. */
  delivered(): string[];
  close(): Promise<void>;
}

/** Answers `answer(id, attempt)` (attempts counted from 1 per event id), once a delivery holds. */
export async function startReceiver(answer: (id: string, attempt: number) => number): Promise<Receiver> {
  const receipts: Receipt[] = [];
  const refused: string[] = [];
  const attempts = new Map<string, number>();
  const verifier = new Webhook(testSecret);
  const server: Server = createServer((request, response) => {
    void requestText(request).then((body) => {
      const headers = Object.fromEntries(Object.entries(request.headers).map(([k, v]) => [k, String(v)]));
      try {
        const event = verifier.verify(body, headers) as Record<string, unknown>;
        if (headers['webhook-id'] !== event.id) throw new Error('webhook-id is not the event id');
        if (headers['content-type'] !== 'application/cloudevents+json') throw new Error('not a CloudEvent');
        const id = String(event.id);
        const attempt = (attempts.get(id) ?? 0) + 1;
        attempts.set(id, attempt);
        const status = answer(id, attempt);
        receipts.push({ id, row: String(event.subject), event, answered: status });
        response.writeHead(status).end();
      } catch (error) {
        refused.push(error instanceof Error ? error.message : String(error));
        response.writeHead(400).end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    receipts,
    refused,
    delivered: () => receipts.filter((r) => r.answered < 300).map((r) => r.id),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
