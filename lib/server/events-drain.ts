/**
 * Where change events are drained: in a long-running process (`npm run serve`, `npm start`), what it says about them
 * as it starts and its drain loop; on Lambda, the drain function's one drain per invocation (scheduled, or invoked
 * by a write that announced events). Each publishes to the configured sink and reports each drain of a database
 * (lib/observe/observe-drain). Without a sink there is no drain: events wait in the outbox, and the notice says how
 * to receive them.
 */
import type { Config } from '../config';
import { type DrainLoop, type DrainReport, drainEventDatabases, startDrainLoop } from '../events/drain-loop';
import { eventDatabases } from '../events/event-databases';
import { eventSink, sinkDescription } from '../events/event-sink';
import { observeDrain } from '../observe/observe-drain';

/** The lines that say which resources announce their changes, and where the events go. */
export async function eventsNotice(settings: Config): Promise<string[]> {
  const databases = await eventDatabases(settings).catch(() => []);
  const resources = databases.flatMap((database) => database.resources);
  if (resources.length === 0) return [];
  const sink = sinkDescription(settings.events);
  const named = `Change events of ${resources.join(', ')}`;
  if (sink) return [`${named}: published to ${sink} (docs/events.md).`];
  return [
    `${named} wait in the outbox: set EVENTS_WEBHOOK_URL and EVENTS_WEBHOOK_SECRET to receive them (docs/events.md).`,
  ];
}

/** The process's drain, when a sink is configured. */
export async function startEventsDrain(settings: Config): Promise<DrainLoop | undefined> {
  const sink = await eventSink(settings.events, settings.awsRegion);
  if (!sink) return undefined;
  return startDrainLoop(settings, sink, (report) => observeDrain(report, sink.description));
}

/** The drain function's sink, made on its first invocation (the webhook secret read once per container). */
let lambdaSink: ReturnType<typeof eventSink> | undefined;

/**
 * One drain of every database with events, for at most `budgetMs`; `holder` names it in the leases (the
 * invocation's request id). Resolves to what each database's drain did, or why it failed.
 */
export async function drainEventsOnce(settings: Config, holder: string, budgetMs: number): Promise<DrainReport[]> {
  lambdaSink ??= eventSink(settings.events, settings.awsRegion);
  const sink = await lambdaSink.catch((error: unknown) => {
    lambdaSink = undefined;
    throw error;
  });
  if (!sink) throw new Error('No sink is configured for change events (docs/events.md#sinks)');
  const reports: DrainReport[] = [];
  await drainEventDatabases(
    settings,
    sink,
    holder,
    (report) => {
      observeDrain(report, sink.description);
      reports.push(report);
    },
    budgetMs,
  );
  return reports;
}

/** Tests: the next invocation makes its sink afresh (reading the secret again). */
export function forgetDrainSink(): void {
  lambdaSink = undefined;
}
