/**
 * What a write whose resource announces its operation does before it commits: turns the rows it changed into
 * events (change-events) and adds them to the outbox of the resource's database (outbox), in the write's
 * transaction; and, once it committed, tells the drains of this process to look (nudge). A write of an operation
 * the definition does not list announces nothing.
 */
import { randomUUID } from 'node:crypto';
import type { EventsConfig } from '../config';
import { sqlShapeOf } from '../db/engines/registry';
import type { Announce } from '../execute/execute-plan';
import type { SqlResource, WriteOperation } from '../resource';
import { changeEvents } from './change-events';
import { writeOutbox } from './outbox';

export interface Announcer {
  readonly announce: Announce;
  /** Called once the write committed. */
  readonly committed: () => void;
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
  settings: EventsConfig,
): Announcer | undefined {
  const events = resource.events;
  if (!events?.on.includes(operation)) return undefined;
  return {
    announce: (tx, changes) => {
      const given = { ...origin, source: settings.source, time: Date.now(), newId: randomUUID };
      return writeOutbox(tx, sqlShapeOf(resource.engine), changeEvents(resource, changes, events.before, given));
    },
    committed: () => {
      for (const nudge of nudges) nudge();
    },
  };
}
