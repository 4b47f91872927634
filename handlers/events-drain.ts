/**
 * The drain function: publishes the outbox of every database with change events to the configured sink, once per
 * invocation (every minute on a schedule, and at once when a write that announced events invokes it), stopping
 * rounds 5 s before its timeout. No route reaches it.
 */
import type { Context } from 'aws-lambda';
import { config } from '../lib/config';
import { drainEventsOnce } from '../lib/server/events-drain';

export const handler = async (_event: unknown, context: Context) => {
  const reports = await drainEventsOnce(config(), context.awsRequestId, context.getRemainingTimeInMillis() - 5000);
  return reports.map((report) =>
    'error' in report
      ? {
          database: report.database,
          error: report.error instanceof Error ? report.error.message : String(report.error),
        }
      : { database: report.database, ...report.result },
  );
};
