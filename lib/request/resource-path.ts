/**
 * The paths of the resources: `/res/{name}[/{key}...]`, after any stage prefix, and the methods they serve.
 * Pure; light on purpose, for the fallback handler's small bundle too.
 */

export const resourceMethods = ['GET', 'POST', 'PUT', 'DELETE'] as const;

/** The decoded name and the raw key remainder of a resource path, or undefined for any other path. */
export function resourcePath(path: string): { name: string; keys?: string } | undefined {
  const match = /(?:^|\/)res\/([^/]+)(?:\/(.*))?$/.exec(path);
  if (!match) return undefined;
  let name: string;
  try {
    name = decodeURIComponent(match[1] as string);
  } catch {
    name = match[1] as string;
  }
  return { name, keys: match[2] };
}
