/**
 * Reads the `Prefer` header (RFC 7240) for the one preference the service honours: `count=exact`. Preferences are
 * separated by commas, each `name[=value]` with `;` parameters after it; names are case-insensitive, a value may be
 * quoted. A preference the service does not know, or cannot read, is ignored, as RFC 7240 says. Pure.
 */

/** Whether `header` asks for `count=exact`. */
export function parseCountPreference(header: string | undefined): boolean {
  if (header === undefined) return false;
  return header.split(',').some((preference) => {
    const [token = ''] = preference.split(';');
    const at = token.indexOf('=');
    if (at < 0) return false;
    const name = token.slice(0, at).trim().toLowerCase();
    const value = token
      .slice(at + 1)
      .trim()
      .replace(/^"(.*)"$/, '$1');
    return name === 'count' && value.toLowerCase() === 'exact';
  });
}
