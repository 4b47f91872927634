/**
 * Reads the `Prefer` header (RFC 7240) for the one preference the service honours: `count=exact`. Preferences are
 * separated by commas, each `name[=value]` with `;` parameters after it; names are case-insensitive, a value may be
 * quoted. A preference the service does not know, or cannot read, is ignored, as RFC 7240 says. Pure.
 */

/** Whether `header` asks for `count=exact`. */
export function parseCountPreference(header: string | undefined): boolean {
  return (header ?? '').split(',').some((preference) => /^\s*count\s*=\s*("?)exact\1\s*(;|$)/i.test(preference));
}
