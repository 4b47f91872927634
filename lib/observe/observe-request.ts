/**
 * Observes one request from start to response: runs it with a request record (request-context), then writes its
 * one log line (Powertools Logger) and its metrics (Powertools Metrics, CloudWatch embedded metric format on
 * stdout). The line holds names, codes, counts and times: never a value of a row, a body, a token, a password or
 * the query string (the path is shown as its route). INFO logs every request, WARN only failed ones, ERROR only
 * 5xx; DEBUG adds a line per database call.
 */

import { MetricUnit } from '@aws-lambda-powertools/metrics';
import type { Context } from 'aws-lambda';
import { toServiceError } from '../errors';
import { type CallListener, newRequestRecord, type RequestRecord, withRequestRecord } from '../request-context';
import { routeName } from '../routes';
import { describeError } from './describe-error';
import { type Observers, observers } from './observers';

/** What a served request came to. */
export interface Outcome<T> {
  readonly status: number;
  /** The request as read from the event (absent when the event could not be read). */
  readonly method?: string;
  readonly path?: string;
  /** The error that became the response. */
  readonly error?: unknown;
  readonly result: T;
}

const ms = (value: number) => Math.round(value * 10) / 10;

function debugListener(logger: Observers['logger'], requestId: string): CallListener | undefined {
  if (!['TRACE', 'DEBUG'].includes(logger.getLevelName())) return undefined;
  return (call, took, failed) =>
    logger.debug('database call', {
      request_id: requestId,
      dialect: call.engine, // the engine, under the field name operating.md documents
      call: call.kind,
      ...(call.text !== undefined ? { sql: call.text } : {}),
      db_ms: ms(took),
      failed,
    });
}

function errorFields(error: unknown, record: RequestRecord) {
  if (error === undefined) return {};
  const answer = toServiceError(error);
  return {
    error_code: answer.code,
    error_cause: describeError(answer),
    ...(record.failedSql !== undefined ? { sql: record.failedSql } : {}),
  };
}

function logLine(
  o: Observers,
  id: string,
  outcome: Outcome<unknown>,
  record: RequestRecord,
  took: number,
  cold: boolean,
) {
  const fields = {
    request_id: id,
    ...(outcome.method !== undefined ? { method: outcome.method } : {}),
    ...(outcome.path !== undefined ? { route: routeName(outcome.path) } : {}),
    ...(record.resource !== undefined ? { resource: record.resource } : {}),
    ...(record.operation !== undefined ? { operation: record.operation } : {}),
    ...(record.tool !== undefined ? { tool: record.tool } : {}),
    ...(record.toolError !== undefined ? { tool_error: record.toolError } : {}),
    status: outcome.status,
    ...errorFields(outcome.error, record),
    duration_ms: ms(took),
    db_ms: ms(record.dbMs),
    db_calls: record.dbCalls,
    ...(record.rows !== undefined ? { rows: record.rows } : {}),
    ...(record.nudgeFailed !== undefined ? { events_nudge_error: record.nudgeFailed } : {}),
    cold_start: cold,
  };
  if (outcome.status >= 500) o.logger.error('request', fields);
  else if (outcome.status >= 400) o.logger.warn('request', fields);
  else o.logger.info('request', fields);
}

/** Requests, errors, latency and database time by resource and operation; errors also by code. */
function publishMetrics(o: Observers, outcome: Outcome<unknown>, record: RequestRecord, took: number) {
  const metrics = o.metrics;
  if (!metrics) return;
  metrics.captureColdStartMetric();
  const failed = outcome.error !== undefined;
  metrics.addDimensions({
    resource: record.resourceFound && record.resource !== undefined ? record.resource : 'none',
    // a tool call is counted under its tool's name (read_Book), which names its operation too
    operation: record.tool ?? record.operation ?? 'none',
  });
  metrics.addMetric('Requests', MetricUnit.Count, 1);
  metrics.addMetric('Errors', MetricUnit.Count, failed ? 1 : 0);
  metrics.addMetric('Latency', MetricUnit.Milliseconds, ms(took));
  metrics.addMetric('DatabaseTime', MetricUnit.Milliseconds, ms(record.dbMs));
  metrics.publishStoredMetrics();
  if (failed)
    metrics
      .singleMetric()
      .addDimension('code', toServiceError(outcome.error).code)
      .addMetric('Errors', MetricUnit.Count, 1);
}

/** Serves one request inside its record, then logs it and counts it; a failure to observe never fails it. */
/**
 * `lambda`: the invocation's context on Lambda: every log line then names the function, its version, memory and
 * ARN, and the invocation (Powertools adds the X-Ray trace id from the environment), so a line joins its trace.
 */
export async function observeRequest<T>(
  requestId: string,
  lambda: Partial<Context> | undefined,
  serve: () => Promise<Outcome<T>>,
): Promise<T> {
  const started = performance.now();
  const o = observers();
  if (lambda?.functionName !== undefined) o.logger.addContext(lambda as Context);
  const cold = o.coldStart;
  o.coldStart = false;
  const record = newRequestRecord(requestId);
  const outcome = await withRequestRecord(
    record,
    { wrap: o.traceCall, listen: debugListener(o.logger, requestId) },
    serve,
  );
  const took = performance.now() - started;
  try {
    logLine(o, requestId, outcome, record, took, cold);
    publishMetrics(o, outcome, record, took);
  } catch (error) {
    console.error(`Observing request ${requestId} failed: ${error instanceof Error ? error.name : typeof error}`);
  }
  return outcome.result;
}
