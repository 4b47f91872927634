/**
 * What a drain tells the operator: a log line for each drain of a database that published, retried or dead-lettered
 * events, or failed (with what to do when the outbox is not set up), and the metrics EventsPublished, EventsFailed,
 * EventsDeadLettered and EventsOldestPendingAge (ms), by database. A drain that found nothing to do says nothing.
 */
import { MetricUnit } from '@aws-lambda-powertools/metrics';
import type { DrainResult } from '../events/drain';
import type { DrainReport } from '../events/drain-loop';
import { withSetupHint } from '../events/outbox';
import { type Observers, observers } from './observers';

export function observeDrain(report: DrainReport, sink: string): void {
  const o = observers();
  const database = report.database === '' ? 'DATABASE_URL' : report.database;
  if ('error' in report) {
    const message = report.error instanceof Error ? report.error.message : String(report.error);
    o.logger.error('events drain', { database, sink, error: withSetupHint(message) });
    return;
  }
  if (!report.result.leased) return;
  logDrain(o, database, sink, report.result);
  countDrain(o, database, report.result);
}

/** A drain that published, retried or dead-lettered events: info, warn when some failed, error when some died. */
function logDrain(o: Observers, database: string, sink: string, result: DrainResult): void {
  const { published, failed, deadLettered, oldestPendingMs } = result;
  if (published === 0 && failed === 0 && deadLettered === 0) return;
  const fields = { database, sink, published, failed, dead_lettered: deadLettered, oldest_pending_ms: oldestPendingMs };
  if (deadLettered > 0) o.logger.error('events drain', fields);
  else if (failed > 0) o.logger.warn('events drain', fields);
  else o.logger.info('events drain', fields);
}

function countDrain(o: Observers, database: string, result: DrainResult): void {
  const metrics = o.metrics;
  if (!metrics) return;
  metrics.addDimensions({ database });
  metrics.addMetric('EventsPublished', MetricUnit.Count, result.published);
  metrics.addMetric('EventsFailed', MetricUnit.Count, result.failed);
  metrics.addMetric('EventsDeadLettered', MetricUnit.Count, result.deadLettered);
  metrics.addMetric('EventsOldestPendingAge', MetricUnit.Milliseconds, result.oldestPendingMs);
  metrics.publishStoredMetrics();
}
