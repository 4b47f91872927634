/**
 * The health checks, answered without sign-in: GET /health says the function runs (liveness) and touches
 * nothing; GET /health/db runs `SELECT 1` on every configured database and answers 200 with each one's time, or
 * 503 naming the ones that failed and why; GET /health/events answers each database's change events backlog
 * (outbox-backlog), or 503 naming one whose outbox cannot be read. Databases are named by their variable only: no host, no password.
 * Anyone may call it, so its answer is reused for a few seconds (below): a flood of calls runs a few checks, not
 * one query per call. Must not read a definition or serve anything of a resource.
 */
import { createCache } from '../cache';
import { type Config, config } from '../config';
import { checkDatabases, type DatabaseCheck } from '../db/check-databases';
import { NotFoundError } from '../errors';
import { type Backlog, outboxBacklogs } from '../events/outbox-backlog';
import { pathOf } from '../routes';
import type { HttpRequest } from './from-event';
import { requireGet } from './require-get';
import { type HttpResponse, toResult } from './to-result';

const health = pathOf('/health');
const healthDb = pathOf('/health/db');
const healthEvents = pathOf('/health/events');

/** How long an answer of the database checks is reused, in milliseconds. */
export const healthCacheMs = 5_000;

/**
 * The caches of /health/db and /health/events. Policy: an answer, ok or failed, is reused for `healthCacheMs` after
 * its check ended, and then never served stale; calls that come while a check runs wait for that check instead of
 * starting their own; one entry, for the configuration in use, so a changed configuration is never answered from an
 * old one.
 */
const recentAnswers = <V extends { readonly status: string }>(check: (settings: Config) => Promise<V[]>) =>
  createCache<Config, V[]>({
    ttlMs: healthCacheMs,
    staleWhileRevalidate: false,
    max: 1,
    // the configuration only: the cache's stale value is no argument of the check
    load: (settings) => check(settings),
  });

const recentChecks = recentAnswers<DatabaseCheck>(checkDatabases);
const recentBacklogs = recentAnswers<Backlog>(outboxBacklogs);

/** A health answer is about this moment (or the last few seconds): no cache in between may keep it. */
const noStore = { 'Cache-Control': 'no-store' };

export async function serveHealth(request: HttpRequest): Promise<HttpResponse> {
  const databases = healthDb.match(request.path) !== undefined;
  const events = healthEvents.match(request.path) !== undefined;
  if (!databases && !events && health.match(request.path) === undefined)
    throw new NotFoundError(
      'path_not_found',
      `No such path: ${request.path}; see /health, /health/db and /health/events`,
    );
  requireGet(request.method);
  if (events) return serveRecent(recentBacklogs);
  if (!databases) return toResult(200, 'application/json', JSON.stringify({ status: 'ok' }), noStore);
  return serveRecent(recentChecks);
}

/** 200 with each database's answer; 503 when one failed. */
async function serveRecent<V extends { readonly status: string }>(
  recent: ReturnType<typeof recentAnswers<V>>,
): Promise<HttpResponse> {
  const answers = await recent.get(config());
  const failed = answers.some((answer) => answer.status === 'failed');
  const body = JSON.stringify({ status: failed ? 'failed' : 'ok', databases: answers });
  return toResult(failed ? 503 : 200, 'application/json', body, noStore);
}
