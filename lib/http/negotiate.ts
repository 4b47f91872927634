/**
 * Content negotiation (D12): the response type from `_output`, Accept (q-values; ties give XML), the request
 * body's type, or XML; the request body's type from Content-Type. 406 and 415 are decided here, before anything
 * runs. Pure.
 */
import { NegotiationError } from '../errors';
import type { BodyType, OutputType } from '../request/types';

const supported = 'application/xml or application/json';

interface MediaRange {
  readonly type: string;
  readonly q: number;
}

export function parseAccept(accept: string): MediaRange[] {
  return accept
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '')
    .map((part) => {
      const [type = '', ...params] = part.split(';').map((p) => p.trim());
      const q = params.find((p) => /^q=/i.test(p));
      const value = q ? Number(q.slice(2)) : 1;
      return { type: type.toLowerCase(), q: Number.isFinite(value) ? value : 0 };
    });
}

function quality(ranges: readonly MediaRange[], candidates: readonly string[]): number {
  let best = -1;
  let bestSpecificity = -1;
  for (const range of ranges) {
    for (const candidate of candidates) {
      const [major] = candidate.split('/');
      const specificity =
        range.type === candidate ? 2 : range.type === `${major}/*` ? 1 : range.type === '*/*' ? 0 : -1;
      if (specificity > bestSpecificity) {
        bestSpecificity = specificity;
        best = range.q;
      }
    }
  }
  return best;
}

/** True when an Accept states no preference: absent, empty, or only `*​/*` (problem+json alone counts as none). */
function noPreference(ranges: readonly MediaRange[]): boolean {
  return ranges.every((r) => r.type === '*/*' || r.type === 'application/problem+json');
}

export function negotiateResponse(
  accept: string | undefined,
  output: OutputType | undefined,
  bodyType?: BodyType,
): OutputType {
  if (output) return output;
  const ranges = parseAccept(accept ?? '');
  if (noPreference(ranges)) return bodyType === 'json' ? 'application/json' : 'application/xml';
  const xml = quality(ranges, ['application/xml', 'text/xml']);
  const json = quality(ranges, ['application/json']);
  if (xml <= 0 && json <= 0) {
    throw new NegotiationError(
      406,
      'not_acceptable',
      `Accept "${accept}" admits no type this service answers with; use ${supported}`,
    );
  }
  return json > xml ? 'application/json' : 'application/xml';
}

export function requestBodyType(contentType: string | undefined): BodyType {
  const type = (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (type === 'application/xml' || type === 'text/xml' || type.endsWith('+xml')) return 'xml';
  if (type === 'application/json' || type.endsWith('+json')) return 'json';
  if (type === 'application/x-www-form-urlencoded') return 'form';
  throw new NegotiationError(
    415,
    'unsupported_media_type',
    `Content-Type "${contentType ?? ''}" is not supported for request bodies; use ${supported} or application/x-www-form-urlencoded`,
  );
}

/** Whether error bodies should be RFC 9457 problem details (D19). */
export function wantsProblemJson(accept: string | undefined): boolean {
  return parseAccept(accept ?? '').some((r) => r.type === 'application/problem+json' && r.q > 0);
}
