/**
 * The paths of the resources, as the route table writes them: `/res/{name}[/{key}...]`, after any stage prefix,
 * and the methods they serve. Pure.
 */
import { methodsOf, pathOf } from '../routes';
import { decodeLenient } from '../text';

export const resourceMethods = methodsOf('/res/{resName}');

const collection = pathOf('/res/{resName}');
const keyed = pathOf('/res/{resName}/{resId+}');

/**
 * The decoded name and the raw key remainder of a resource path (`''` for `/res/Book/`), or undefined for any
 * other path.
 */
export function resourcePath(path: string): { name: string; keys?: string } | undefined {
  const match = keyed.match(path) ?? collection.match(path);
  const { resName, resId } = match?.params ?? {};
  if (resName === undefined) return undefined;
  return { name: decodeLenient(resName), keys: resId ?? (path.endsWith('/') ? '' : undefined) };
}
