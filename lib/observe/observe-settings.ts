/**
 * How much the service tells about itself, from the environment (read once, by observers.ts): the log level,
 * whether metrics are written, their namespace, and whether requests are traced. Pure: it reads only the
 * variables it is given.
 */
export type LogLevel = 'TRACE' | 'DEBUG' | 'INFO' | 'WARN' | 'ERROR' | 'CRITICAL' | 'SILENT';

export interface ObserveSettings {
  readonly logLevel: LogLevel;
  readonly metrics: boolean;
  readonly namespace: string;
  readonly tracing: boolean;
}

export const serviceName = 'relational-resource-service';
const defaultNamespace = 'RelationalResourceService';
const levels: readonly LogLevel[] = ['TRACE', 'DEBUG', 'INFO', 'WARN', 'ERROR', 'CRITICAL', 'SILENT'];

const isTrue = (value: string | undefined) => ['true', '1', 'yes', 'on'].includes((value ?? '').trim().toLowerCase());
const isSet = (value: string | undefined) => value !== undefined && value.trim() !== '';

/**
 * The level: LOG_LEVEL (or Powertools' own POWERTOOLS_LOG_LEVEL); without one, INFO, except under jest, where
 * tests stay quiet unless they ask. An unknown level is INFO, so a typo never silences the log.
 */
function logLevelOf(env: Readonly<Record<string, string | undefined>>): LogLevel {
  const given = [env.LOG_LEVEL, env.POWERTOOLS_LOG_LEVEL].find(isSet);
  if (given === undefined) return isSet(env.JEST_WORKER_ID) ? 'SILENT' : 'INFO';
  const level = given.trim().toUpperCase() as LogLevel;
  return levels.includes(level) ? level : 'INFO';
}

/**
 * Metrics go to stdout as CloudWatch embedded metric format: in Lambda they become metrics, locally (npm start,
 * serverless offline, jest) they would only fill the terminal, so they are on in Lambda only, unless
 * POWERTOOLS_METRICS_DISABLED says otherwise.
 */
function metricsOn(env: Readonly<Record<string, string | undefined>>): boolean {
  if (isSet(env.POWERTOOLS_METRICS_DISABLED)) return !isTrue(env.POWERTOOLS_METRICS_DISABLED);
  return isSet(env.AWS_LAMBDA_FUNCTION_NAME) && !isSet(env.IS_OFFLINE) && !isSet(env.JEST_WORKER_ID);
}

/**
 * Tracing is on only when POWERTOOLS_TRACE_ENABLED=true (the deploy's `tracing=true` param sets it with X-Ray on
 * the functions): unlike Powertools' own default, unset is off, since loading the tracer costs every cold start.
 */
export function observeSettings(env: Readonly<Record<string, string | undefined>>): ObserveSettings {
  return {
    logLevel: logLevelOf(env),
    metrics: metricsOn(env),
    namespace: env.POWERTOOLS_METRICS_NAMESPACE?.trim() || defaultNamespace,
    tracing: isTrue(env.POWERTOOLS_TRACE_ENABLED),
  };
}
