/**
 * URL decoding for query strings and form bodies: `+` is a space, `%XX` a byte of UTF-8. Pure.
 */
import { BadRequestError } from '../errors';

/** Decodes one `application/x-www-form-urlencoded` component; malformed escapes are a 400 naming the text. */
function decodeComponent(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch (error) {
    throw new BadRequestError('bad_parameter', `Malformed percent-encoding in "${text}"`, error);
  }
}

/** Splits `a=1&b=2` into decoded [name, value] pairs in order; empty pieces (`a=1&&b=2`) are skipped. */
export function decodePairs(raw: string): [string, string][] {
  const pairs: [string, string][] = [];
  for (const piece of raw.split('&')) {
    if (piece === '') continue;
    const eq = piece.indexOf('=');
    const name = eq < 0 ? piece : piece.slice(0, eq);
    const value = eq < 0 ? '' : piece.slice(eq + 1);
    pairs.push([decodeComponent(name), decodeComponent(value)]);
  }
  return pairs;
}
