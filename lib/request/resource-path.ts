/**
 * The paths of the resources: `/res/{name}[/{key}...]`, after any stage prefix, and the methods they serve.
 * Pure; light on purpose, for the fallback handler's small bundle too.
 */
import { decodeLenient } from '../text';

export const resourceMethods = ['GET', 'POST', 'PUT', 'DELETE'] as const;

/** The decoded name and the raw key remainder of a resource path, or undefined for any other path. */
export function resourcePath(path: string): { name: string; keys?: string } | undefined {
  const match = /(?:^|\/)res\/([^/]+)(?:\/(.*))?$/.exec(path);
  if (!match) return undefined;
  return { name: decodeLenient(match[1] as string), keys: match[2] };
}
