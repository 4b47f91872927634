/**
 * Entity tags as a conditional request sends them (If-Match, If-None-Match), and how they are compared with a
 * representation's current tag (RFC 9110 8.8.3.2): strongly for If-Match, weakly for If-None-Match. Pure.
 */

/** `*`: any current version; otherwise the tags as sent, quotes included (`W/` kept on weak ones). */
export type EntityTags = { readonly any: true } | { readonly any: false; readonly tags: readonly string[] };

/** Strong comparison (If-Match): equal tags, neither weak. */
export function matchesStrongly(tags: EntityTags, current: string): boolean {
  return tags.any || tags.tags.some((tag) => !tag.startsWith('W/') && tag === current);
}

/** Weak comparison (If-None-Match): equal opaque parts, a weak tag matching too. */
export function matchesWeakly(tags: EntityTags, current: string): boolean {
  const opaque = (tag: string) => (tag.startsWith('W/') ? tag.slice(2) : tag);
  return tags.any || tags.tags.some((tag) => opaque(tag) === opaque(current));
}
