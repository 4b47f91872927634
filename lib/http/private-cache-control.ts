/**
 * The Cache-Control of an answer to a signed-in caller: what one caller may see is not for a shared cache (a CDN,
 * a proxy) to hand to another, so `public` and `s-maxage` are dropped and `private` is added, unless the answer
 * is not stored at all. The definition's other directives (max-age, no-cache, ...) stay. Pure.
 */

export function privateCacheControl(cacheControl: string): string {
  const directives = cacheControl
    .split(',')
    .map((directive) => directive.trim())
    .filter((directive) => directive !== '' && !/^(public|private|s-maxage\s*=.*)$/i.test(directive));
  if (directives.some((directive) => directive.toLowerCase() === 'no-store')) return directives.join(', ');
  return ['private', ...directives].join(', ');
}
