/**
 * What a write whose resource announces its operation does before it commits: turns the rows it changed into
 * events (change-events) and adds them to the outbox of the resource's database (outbox), in the write's
 * transaction; and, once it committed, tells the drains of this process to look, or on Lambda invokes the drain
 * function (nudge-drain). A write of an operation the definition does not list announces nothing.
 */
import { randomUUID } from 'node:crypto';
import type { Config } from '../config';
import type { Statement } from '../db/database';
import { sqlShapeOf } from '../db/engines/registry';
import type { Announce, WriteEvents } from '../execute/execute-plan';
import type { SqlResource, WriteOperation } from '../resource';
import { changeEvents, type EventOrigin } from './change-events';
import { insertAddingEvents } from './insert-events';
import { writeOutbox } from './outbox';

export interface Announcer extends WriteEvents {
  readonly announce: Announce;
  /**
   * Called once the write committed: tells this process's drains, and on Lambda invokes the drain function. Resolves
   * to why that invocation failed, if it did (the drain's schedule publishes the events all the same).
   */
  readonly committed: () => Promise<string | undefined>;
}

type Nudge = () => void;
const nudges = new Set<Nudge>();

/** A drain in this process is told of each committed write with events; returns how to stop telling it. */
export function onCommittedEvents(nudge: Nudge): () => void {
  nudges.add(nudge);
  return () => nudges.delete(nudge);
}

export function announcerFor(
  resource: SqlResource,
  operation: WriteOperation,
  origin: { readonly requestId?: string; readonly caller?: string },
  settings: Pick<Config, 'events' | 'onLambda' | 'awsRegion' | 'dbPrepare'>,
): Announcer | undefined {
  const events = resource.events;
  if (!events?.on.includes(operation)) return undefined;
  const drainFunction = settings.onLambda ? settings.events.drainFunction : undefined;
  const shape = sqlShapeOf(resource.engine);
  const { source } = settings.events;
  const { requestId, caller } = origin;
  const now = (): EventOrigin => ({ source, requestId, caller, time: Date.now(), newId: randomUUID });
  // an insert adds its own event where the engine's SQL can, and (MariaDB) where statements are prepared
  const worthIt = !shape.eventSql?.preparedOnly || settings.dbPrepare === true;
  const adding = operation === 'insert' && worthIt ? insertAddingEvents(shape, resource) : undefined;
  const inInsert = (given: readonly string[]) => {
    const add = adding?.(given);
    return add && ((insert: Statement) => add(insert, events.before, now()));
  };
  return {
    announce: (tx, changes) => writeOutbox(tx, shape, changeEvents(resource, changes, events.before, now())),
    ...(adding ? { inInsert } : {}),
    committed: async () => {
      for (const nudge of nudges) nudge();
      if (!drainFunction) return undefined;
      // required here, not imported: the Lambda client is loaded only where a write nudges a drain function
      const { nudgeDrainFunction } = require('./nudge-drain') as typeof import('./nudge-drain');
      return nudgeDrainFunction(drainFunction, settings.awsRegion).then(
        () => undefined,
        (error: unknown) => (error instanceof Error ? `${error.name}: ${error.message}` : String(error)),
      );
    },
  };
}
