/**
 * The paths that answer reads only: any method but GET is a 405 whose Allow names GET and HEAD (create-handler
 * serves a HEAD as its GET, so a HEAD arrives here as a GET). Pure.
 */
import { MethodNotAllowedError } from '../errors';

export function requireGet(method: string): void {
  if (method !== 'GET') throw new MethodNotAllowedError(method, ['GET', 'HEAD']);
}
