/**
 * Content negotiation: the response type from `_output`, Accept (q-values; ties give XML), the request body's
 * type, or XML; a 406 when Accept admits neither, decided before the resource is loaded. A read may also answer
 * CSV, only when asked for it (`_output=text/csv`, or Accept ranking text/csv above the others); a write never
 * does. Also what an error body and the description pages negotiate (problem+json, HTML). Pure.
 *
 * Not on `negotiator`: it ranks media types of equal q by their order in Accept (`application/json,
 * application/xml` would answer JSON), where this service answers XML on a tie as restSQL did, and it ranks media
 * types, where XML is one representation under two (application/xml and text/xml, the more specific match
 * deciding). Bending it to both would take as much code as this, and change answers clients get today.
 */
import { NegotiationError } from '../errors';
import type { BodyType } from '../request/resource-request';
import { htmlType } from '../serial/html-page';
import { csvType } from '../serial/serialize-csv';
import type { Representation } from '../serial/serialize-read';
import type { OutputName, OutputType } from '../values';

/** What a description page or the listing answers with: XML, JSON, or HTML for a browser. */
export type PageRepresentation = OutputType | typeof htmlType;

const supported = 'application/xml or application/json';
const supportedByReads = 'application/xml or application/json (or text/csv, on a flat resource)';

interface MediaRange {
  readonly type: string;
  readonly q: number;
}

function parseAccept(accept: string): MediaRange[] {
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

/** The most specific range matching one media type (RFC 9110 12.5.1), as [specificity, q]; [-1, -1] if none. */
function matchOf(ranges: readonly MediaRange[], candidate: string): [number, number] {
  const [major] = candidate.split('/');
  let best: [number, number] = [-1, -1];
  for (const range of ranges) {
    const specificity = range.type === candidate ? 2 : range.type === `${major}/*` ? 1 : range.type === '*/*' ? 0 : -1;
    if (specificity > best[0] || (specificity === best[0] && specificity >= 0 && range.q > best[1]))
      best = [specificity, range.q];
  }
  return best;
}

/**
 * The q of one representation that several media types stand for (XML: application/xml and text/xml): the most
 * specific match wins, so an explicit `application/xml;q=0.2` is not lifted by `*​/*` matching text/xml.
 */
function quality(ranges: readonly MediaRange[], candidates: readonly string[]): number {
  const matches = candidates.map((candidate) => matchOf(ranges, candidate));
  matches.sort((a, b) => b[0] - a[0] || b[1] - a[1]);
  return matches[0]?.[1] ?? -1;
}

/** True when an Accept states no preference: absent, empty, or only `*​/*` (problem+json alone counts as none). */
function noPreference(ranges: readonly MediaRange[]): boolean {
  return ranges.every((r) => (r.type === '*/*' && r.q > 0) || r.type === 'application/problem+json');
}

export function negotiateResponse(
  accept: string | undefined,
  output: OutputName | undefined,
  bodyType?: BodyType,
): OutputType {
  if (output === 'text/csv') {
    throw new NegotiationError(
      406,
      'not_acceptable',
      `_output asks for text/csv, which only reads of flat resources answer with; use ${supported}`,
    );
  }
  return output ?? xmlOrJson(accept, bodyType, supported);
}

/** XML or JSON by Accept, else by the body's type; a 406 naming `supported` when Accept admits neither. */
function xmlOrJson(accept: string | undefined, bodyType: BodyType | undefined, supported: string): OutputType {
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

/** Whether error bodies should be RFC 9457 problem details. */
export function wantsProblemJson(accept: string | undefined): boolean {
  return parseAccept(accept ?? '').some((r) => r.type === 'application/problem+json' && r.q > 0);
}

/** The q of an explicit range for `type` (no wildcard), 0 when there is none. */
function explicitQuality(ranges: readonly MediaRange[], type: string): number {
  return ranges.find((r) => r.type === type)?.q ?? 0;
}

/** A browser asks for HTML: an explicit text/html that ranks at least as high as XML and JSON. */
export function prefersHtml(accept: string | undefined): boolean {
  const ranges = parseAccept(accept ?? '');
  const html = explicitQuality(ranges, 'text/html');
  return (
    html > 0 &&
    html >= quality(ranges, ['application/xml', 'text/xml']) &&
    html >= quality(ranges, ['application/json'])
  );
}

/**
 * CSV is asked for: text/csv ranked above XML, JSON and an explicit text/html, so that a tie, `text/*` or `*​/*`
 * never gives it.
 */
function prefersCsv(accept: string | undefined): boolean {
  const ranges = parseAccept(accept ?? '');
  const csv = quality(ranges, ['text/csv']);
  return (
    csv > 0 &&
    csv > quality(ranges, ['application/xml', 'text/xml']) &&
    csv > quality(ranges, ['application/json']) &&
    csv > explicitQuality(ranges, 'text/html')
  );
}

/**
 * The representation of a read of a resource: CSV when asked for by `_output` or Accept (whether the resource
 * can be written as CSV is for the serializer to say, once it is loaded), else as negotiatePage chooses, with a 406
 * that names text/csv among the types a read answers with.
 */
export function negotiateRead(accept: string | undefined, output: OutputName | undefined): Representation {
  if (output === 'text/csv' || (!output && prefersCsv(accept))) return csvType;
  if (output) return output;
  return prefersHtml(accept) ? htmlType : xmlOrJson(accept, undefined, supportedByReads);
}

/**
 * The representation of a description page: HTML for a browser (no `_output`, and text/html ranked at
 * least as high as XML and JSON), else XML or JSON as negotiateResponse chooses, so that every other client gets
 * what it got before there were pages.
 */
export function negotiatePage(accept: string | undefined, output: OutputName | undefined): PageRepresentation {
  return !output && prefersHtml(accept) ? htmlType : negotiateResponse(accept, output);
}
