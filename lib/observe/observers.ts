/**
 * The service's Powertools Logger and Metrics, and the database call tracer, made on the first request from the
 * environment (observe-settings) and kept while the container is warm. The tracer module (and with it the X-Ray
 * SDK) is required only when POWERTOOLS_TRACE_ENABLED=true: without tracing it is never loaded, which keeps cold starts short.
 */
import type { Logger } from '@aws-lambda-powertools/logger';
import { Metrics } from '@aws-lambda-powertools/metrics';
import type { CallWrapper } from '../request-context';
import { bufferedLineOutput, type LineOutput } from './log-output';
import { type ObserveSettings, observeSettings, serviceName } from './observe-settings';
import { ServiceLogger } from './service-logger';

export interface Observers {
  readonly settings: ObserveSettings;
  readonly logger: Logger;
  /** Absent when metrics are off. */
  readonly metrics?: Metrics;
  /** Absent when tracing is off. */
  readonly traceCall?: CallWrapper;
  /** True until the container's first request was observed (false in a provisioned container). */
  coldStart: boolean;
}

let current: Observers | undefined;
/** Where the logger writes when not Powertools' console: the server mode's lines, a turn at a time. */
let output: LineOutput | undefined;

function loadTracer(): CallWrapper {
  // required here, not imported: the X-Ray SDK costs cold-start time that only a traced service pays
  const { traceDatabaseCalls } = require('./trace-database-call') as typeof import('./trace-database-call');
  return traceDatabaseCalls();
}

function create(env: NodeJS.ProcessEnv): Observers {
  const settings = observeSettings(env);
  return {
    settings,
    logger: new ServiceLogger({ serviceName, logLevel: settings.logLevel }, output),
    ...(settings.metrics ? { metrics: new Metrics({ serviceName, namespace: settings.namespace }) } : {}),
    ...(settings.tracing ? { traceCall: loadTracer() } : {}),
    coldStart: env.AWS_LAMBDA_INITIALIZATION_TYPE !== 'provisioned-concurrency',
  };
}

export function observers(): Observers {
  current ??= create(process.env);
  return current;
}

/**
 * The server mode: log lines are written a turn of the event loop at a time (log-output.ts), by the loggers made
 * from now on. Lambda never calls it.
 */
export function writeLogLinesPerTurn(): void {
  output ??= bufferedLineOutput();
  current = undefined;
}

/** Tests: the next request reads the environment again (and counts as a cold start). */
export function forgetObservers(): void {
  current = undefined;
}
