/**
 * Change events in a long-running process (`npm run serve`, `npm start`): what it says about them as it starts, and
 * its drain, publishing to the configured sink and reporting each drain (lib/observe/observe-drain). Without a sink
 * there is no drain: events wait in the outbox, and the notice says how to receive them.
 */
import type { Config } from '../config';
import { type DrainLoop, startDrainLoop } from '../events/drain-loop';
import { eventDatabases } from '../events/event-databases';
import { eventSink } from '../events/event-sink';
import { observeDrain } from '../observe/observe-drain';

/** The lines that say which resources announce their changes, and where the events go. */
export async function eventsNotice(settings: Config): Promise<string[]> {
  const databases = await eventDatabases(settings).catch(() => []);
  const resources = databases.flatMap((database) => database.resources);
  if (resources.length === 0) return [];
  const sink = eventSink(settings.events);
  const named = `Change events of ${resources.join(', ')}`;
  if (sink) return [`${named}: published to ${sink.description} (docs/events.md).`];
  return [
    `${named} wait in the outbox: set EVENTS_WEBHOOK_URL and EVENTS_WEBHOOK_SECRET to receive them (docs/events.md).`,
  ];
}

/** The process's drain, when a sink is configured. */
export function startEventsDrain(settings: Config): DrainLoop | undefined {
  const sink = eventSink(settings.events);
  if (!sink) return undefined;
  return startDrainLoop(settings, sink, (report) => observeDrain(report, sink.description));
}
