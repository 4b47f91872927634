/**
 * The deploy params that make the service operable in production, checked and turned into what
 * scripts/deploy/safe-deploy.js applies: the network (a VPC, or vpc=none on purpose), the limits (reserved
 * concurrency of the database functions, the HTTP API's throttling), CORS, X-Ray tracing, CloudWatch alarms, and
 * the service's tuning variables. Pure: it reads the params and writes into `out` (deploy-settings.js's result).
 */
const docs = 'docs/deployment.md';

/** The headers the service reads and sends, for CORS. */
const corsHeaders = ['Content-Type', 'Accept', 'Authorization', 'X-HTTP-Method-Override', 'Prefer'];
const corsExposed = ['X-Request-Id', 'WWW-Authenticate', 'Allow', 'Content-Range', 'Link', 'Preference-Applied'];
const corsMethods = ['GET', 'POST', 'PUT', 'DELETE'];

/** Params that set one variable of the service each: [param, variable, smallest value]. */
const tuning = [
  ['dbPoolSize', 'DB_POOL_SIZE', 1],
  ['dbConnectTimeoutMs', 'DB_CONNECT_TIMEOUT_MS', 1],
  ['dbStatementTimeoutMs', 'DB_STATEMENT_TIMEOUT_MS', 1],
  ['dbIdleTimeoutS', 'DB_IDLE_TIMEOUT_S', 1],
  ['maxBodyBytes', 'MAX_BODY_BYTES', 1],
  ['maxResultBytes', 'MAX_RESULT_BYTES', 1],
  ['maxRows', 'MAX_ROWS', 1],
  ['definitionsTtlS', 'DEFINITIONS_TTL_S', 0],
];
/** The service's log levels (Powertools Logger's). */
const logLevels = ['TRACE', 'DEBUG', 'INFO', 'WARN', 'ERROR', 'CRITICAL', 'SILENT'];

function operatingSettings(p, out) {
  network(p, out);
  limits(p, out);
  cors(p, out);
  tracing(p, out);
  alarms(p, out);
  variables(p, out);
}

/** Inside the database's VPC (both lists of ids), or outside any, said on purpose with vpc=none. */
function network(p, out) {
  const { vpc, securityGroupIds, subnetIds } = p;
  if (vpc && vpc !== 'none') {
    out.errors.push(`--param="vpc=${vpc}" is not understood: its only value is none (the functions run in no VPC)`);
    return;
  }
  if (vpc === 'none') {
    if (securityGroupIds || subnetIds)
      out.errors.push(
        'Give either --param="securityGroupIds=..." --param="subnetIds=..." (a VPC) or --param="vpc=none" (no VPC), not both',
      );
    return;
  }
  if (!securityGroupIds && !subnetIds) {
    out.errors.push(
      [
        'No VPC is given, and an RDS Proxy (like most databases on AWS) is reachable only inside its VPC. Give',
        'the database\'s VPC: --param="securityGroupIds=<sg-id>,<sg-id>" --param="subnetIds=<subnet-id>,<subnet-id>"',
        'or, if the database is reachable without one, say so: --param="vpc=none".',
        `See ${docs}#vpc`,
      ].join('\n'),
    );
    return;
  }
  ids(p, 'securityGroupIds', 'subnetIds', /^sg-[0-9a-f]{8,17}$/, 'sg-0123456789abcdef0', out);
  ids(p, 'subnetIds', 'securityGroupIds', /^subnet-[0-9a-f]{8,17}$/, 'subnet-0123456789abcdef0', out);
}

/** A value copied from an example without filling it in: `<sg-id>`, `sg-..`. */
const placeholder = /[<>]|\.\./;

function ids(p, name, other, pattern, example, out) {
  if (!p[name]) {
    out.errors.push(`${other} is given without ${name}: the functions' VPC needs both`);
    return;
  }
  // each id once: the same placeholder twice (<sg-id>,<sg-id>) is one mistake, said once
  for (const id of new Set(p[name].split(',').map((s) => s.trim()))) {
    if (pattern.test(id)) continue;
    out.errors.push(
      placeholder.test(id)
        ? `${name}: "${id}" is a placeholder: put the ids of your own in its place, like ${example}`
        : `${name}: "${id}" is not an id like ${example}`,
    );
  }
}

/**
 * The HTTP API stage's throttle without throttleRate / throttleBurst: every route of the stage, requests per
 * second on average and at once. A tenth of API Gateway's own account-wide default (10,000 and 5,000), so that
 * one API that anyone can call cannot take the account's whole quota, and at 30 ms a request about 15 busy
 * containers: enough for most services, raised with the params.
 */
const defaultThrottle = { rateLimit: 500, burstLimit: 1000 };
/**
 * Reserved concurrency of the functions of the open routes (the health checks) without healthConcurrency: two
 * containers answer a monitor or two, and a flood of anonymous calls never scales them further.
 */
const defaultHealthConcurrency = 2;

/** Reserved concurrency of the database functions and of the health checks, and the HTTP API stage's throttle. */
function limits(p, out) {
  out.reservedConcurrency = positive(p, 'maxConcurrency', 1, out);
  out.healthConcurrency = positive(p, 'healthConcurrency', 1, out) ?? defaultHealthConcurrency;
  if (!p.maxConcurrency)
    out.warnings.push(
      'No maxConcurrency: the functions that reach the database may scale up to the concurrency of the account ' +
        "(1000 by default), each container with its own pool of connections, more than RDS Proxy's or the " +
        `database's limit. Cap them with --param="maxConcurrency=N". See ${docs}#limits`,
    );
  out.throttle = {
    rateLimit: positive(p, 'throttleRate', 1, out) ?? defaultThrottle.rateLimit,
    burstLimit: positive(p, 'throttleBurst', 1, out) ?? defaultThrottle.burstLimit,
  };
}

function cors(p, out) {
  if (!p.corsOrigins) return;
  const origins = p.corsOrigins
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (origins.includes('*')) {
    if (origins.length > 1) {
      out.errors.push('corsOrigins: * (every origin) stands alone, not in a list of origins');
      return;
    }
    out.warnings.push(
      "corsOrigins=*: a web page of any site may call this API from its visitors' browsers. Name the origins " +
        `of your web apps instead: --param="corsOrigins=https://app.example.com". See ${docs}#cors`,
    );
  }
  for (const origin of new Set(origins))
    if (origin !== '*' && !isOrigin(origin))
      out.errors.push(
        `corsOrigins: "${origin}" is not an origin: give https://host or https://host:port, without path or ` +
          'trailing slash',
      );
  out.cors = {
    allowedOrigins: origins,
    allowedHeaders: corsHeaders,
    allowedMethods: corsMethods,
    exposedResponseHeaders: corsExposed,
    maxAge: 600,
  };
}

/** X-Ray for the functions; the service's tracer follows POWERTOOLS_TRACE_ENABLED. */
function tracing(p, out) {
  const value = p.tracing;
  if (value && value !== 'true' && value !== 'false') out.errors.push(`tracing must be true or false, got "${value}"`);
  out.tracing = value === 'true';
  out.environment.POWERTOOLS_TRACE_ENABLED = String(out.tracing);
}

/** CloudWatch alarms on the API's 5xx rate, its p99 latency and the functions' throttles, sent to one topic. */
function alarms(p, out) {
  const topicArn = p.alarmTopicArn;
  const errorRate = p.alarmErrorRate;
  const latency = p.alarmLatencyMs;
  if (!topicArn) {
    for (const name of ['alarmErrorRate', 'alarmLatencyMs'])
      if (p[name]) out.errors.push(`${name} applies only with alarmTopicArn`);
    return;
  }
  if (!/^arn:aws[a-z-]*:sns:[a-z0-9-]+:\d{12}:[A-Za-z0-9_-]{1,256}$/.test(topicArn)) {
    out.errors.push(
      `alarmTopicArn must be the ARN of an SNS topic (arn:aws:sns:eu-west-1:123456789012:name), got "${topicArn}"`,
    );
    return;
  }
  const errorRatePercent = errorRate ? positive(p, 'alarmErrorRate', 1, out) : 5;
  if (errorRatePercent > 100)
    out.errors.push(`alarmErrorRate is a percentage of the requests, from 1 to 100, got "${errorRate}"`);
  const latencyMs = latency ? positive(p, 'alarmLatencyMs', 1, out) : 3000;
  out.alarms = { topicArn, errorRatePercent, latencyMs };
}

/** The service's tuning variables, set only when given: the service's own defaults apply otherwise. */
function variables(p, out) {
  for (const [param, variable, smallest] of tuning) {
    const value = positive(p, param, smallest, out);
    if (value !== undefined) out.environment[variable] = String(value);
  }
  cursorSecret(p, out);
  if (!p.logLevel) return;
  if (logLevels.includes(p.logLevel.toUpperCase())) out.environment.LOG_LEVEL = p.logLevel.toUpperCase();
  else out.errors.push(`logLevel must be one of ${logLevels.join(', ')}, got "${p.logLevel}"`);
}

/** The key of the `_after` tokens: long enough that it cannot be guessed. */
function cursorSecret(p, out) {
  if (!p.cursorSecret) return;
  if (p.cursorSecret.length >= 32) out.environment.CURSOR_SECRET = p.cursorSecret;
  else out.errors.push(`cursorSecret must be at least 32 characters long, got ${p.cursorSecret.length}`);
}

/** The integer param, at least `smallest` (1: positive, 0: non-negative); undefined when not given or wrong. */
function positive(p, name, smallest, out) {
  const raw = p[name];
  if (!raw) return undefined;
  const n = /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
  if (Number.isSafeInteger(n) && n >= smallest) return n;
  out.errors.push(`${name} must be a ${smallest === 0 ? 'non-negative' : 'positive'} integer, got "${raw}"`);
  return undefined;
}

function isOrigin(value) {
  try {
    const url = new URL(value);
    // URL takes a * in a host name, which API Gateway does not: an origin is one site
    const oneSite = !url.hostname.includes('*');
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.origin === value && oneSite;
  } catch {
    return false;
  }
}

module.exports = { operatingSettings };
