/**
 * Splits the path remainder after /res/{name}/ into decoded key segments. Pure: no IO, no env. It must not
 * count or convert the segments; the planner checks them against the resource's primary key.
 */
import { BadRequestError } from '../errors';

/** `resId` is the greedy path remainder, still percent-encoded (`7`, `ABC/42`); `+` stays a plus in paths. */
export function parsePathKeys(resId: string | undefined): string[] {
  if (resId === undefined || resId === '') return [];
  return resId.split('/').map((segment) => decodeSegment(segment, resId));
}

function decodeSegment(segment: string, resId: string): string {
  if (segment === '') {
    throw new BadRequestError('bad_path_key', `Path key ${resId} has an empty segment`);
  }
  try {
    return decodeURIComponent(segment);
  } catch (error) {
    throw new BadRequestError('bad_path_key', `Path key segment ${segment} has malformed percent-encoding`, error);
  }
}
