/**
 * The health checks, answered without sign-in: GET /health says the function runs (liveness) and touches
 * nothing; GET /health/db runs `SELECT 1` on every configured database and answers 200 with each one's time, or
 * 503 naming the ones that failed and why. Databases are named by their variable only: no host, no password.
 * Must not read a definition or serve anything of a resource.
 */
import { config } from '../config';
import { checkDatabases } from '../db/check-databases';
import { MethodNotAllowedError, NotFoundError } from '../errors';
import type { HttpRequest } from './from-event';
import { type HttpResponse, toResult } from './to-result';

const healthPath = /(?:^|\/)health(\/db)?$/;

/** A health answer is about this moment: no cache may keep it. */
const noStore = { 'Cache-Control': 'no-store' };

export async function serveHealth(request: HttpRequest): Promise<HttpResponse> {
  const match = healthPath.exec(request.path);
  if (!match) throw new NotFoundError('path_not_found', `No such path: ${request.path}; see /health and /health/db`);
  if (request.method !== 'GET') throw new MethodNotAllowedError(request.method, ['GET']);
  if (!match[1]) return toResult(200, 'application/json', JSON.stringify({ status: 'ok' }), noStore);
  const databases = await checkDatabases(config());
  const failed = databases.some((check) => check.status === 'failed');
  const body = JSON.stringify({ status: failed ? 'failed' : 'ok', databases });
  return toResult(failed ? 503 : 200, 'application/json', body, noStore);
}
