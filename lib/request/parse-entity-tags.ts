/**
 * The entity tags of an If-Match or If-None-Match header (RFC 9110 8.8.3, 13.1.1-2): `*`, or a comma-separated list
 * of `"opaque"` and `W/"opaque"` tags. A header that is neither is a 400 naming it, never read as "no condition".
 * Pure.
 */
import type { EntityTags } from '../entity-tags';
import { BadRequestError } from '../errors';

const listItem = /^\s*((?:W\/)?"[\x21\x23-\x7e\x80-\xff]*")\s*(?:,|$)/;

export function parseEntityTags(header: string, name: 'If-Match' | 'If-None-Match'): EntityTags {
  if (header.trim() === '*') return { any: true };
  const tags: string[] = [];
  let rest = header;
  while (rest.trim() !== '') {
    const match = listItem.exec(rest);
    if (!match) {
      throw new BadRequestError(
        'bad_header',
        `${name} must be * or a list of entity tags in double quotes, as ETag gives them (${name}: "tag"), not ${header}`,
      );
    }
    tags.push(match[1] as string);
    rest = rest.slice(match[0].length);
  }
  if (tags.length === 0) throw new BadRequestError('bad_header', `${name} is empty; send * or an entity tag`);
  return { any: false, tags };
}
