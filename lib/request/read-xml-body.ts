/**
 * An XML request body → its element tree: a well-formed document whose one root is `request`, attributes kept
 * exactly as written (entities decoded, no trimming, no number parsing), text other than whitespace refused.
 * The fast reader (scan-xml-body.ts, on saxes) reads it; whatever that reader declines — a malformed body among
 * them — the checked reader (read-xml-checked.ts, on fast-xml-parser) reads, and it names the first error with
 * its line and column. Both give the same tree wherever both read a body. `readXmlBodyInSlices` lets other
 * requests run between slices of a big body. The checked reader reads in one piece, so it is given at most
 * `checkedReadLimit` characters: past that the body is refused with the reason the fast reader declined it. Which element names a resource takes is the planner's business.
 * Pure: no IO, environment or clock.
 */
import { BadRequestError } from '../errors';
import { readXmlChecked } from './read-xml-checked';
import type { XmlElement } from './resource-request';
import { scanXmlBody, type XmlScanResult } from './scan-xml-body';

/**
 * Characters read between two turns of the event loop: about a millisecond of work for ordinary rows, a few for a
 * body of nothing but tiny elements.
 */
export const xmlSliceLength = 16 * 1024;

/**
 * The most text the checked reader reads, in one piece, of a body the fast reader declined: about 20 ms of work, so
 * a few such bodies at once cannot hold other requests for long. Only malformed bodies and rare constructs the
 * fast reader declines (a comment ending in `--->`, XML 1.1, names beyond the Basic Multilingual Plane) reach it.
 */
export const checkedReadLimit = 256 * 1024;

export function readXmlBody(text: string): XmlElement {
  return readRest(text, scanXmlBody(text).finish());
}

/** The same tree or error as readXmlBody, with a turn of the event loop after each slice of the text. */
export async function readXmlBodyInSlices(text: string, sliceLength = xmlSliceLength): Promise<XmlElement> {
  const scan = scanXmlBody(text);
  for (let end = sliceLength; end < text.length && scan.readTo(end); end += sliceLength) {
    await new Promise((resolve) => setImmediate(resolve));
  }
  return readRest(text, scan.finish());
}

/**
 * What the fast reader declined, read by the checked reader. The rows the fast reader read whole are left out but
 * for their line feeds and the length of their last line, so the checked reader reads only the rest (a body
 * malformed at its end costs it little) and its messages keep their lines and columns. It would have read those
 * rows as the fast reader did, and it skips the blank text left in their place.
 */
function readRest(text: string, scan: XmlScanResult): XmlElement {
  if (!scan.declined) return scan.root;
  const { rows, from, to, reason } = scan;
  if (text.length - (to - from) > checkedReadLimit) throw new BadRequestError('bad_body', reason);
  if (rows.length === 0) return readXmlChecked(text);
  const rest = readXmlChecked(text.slice(0, from) + blankOut(text, from, to) + text.slice(to));
  return { ...rest, children: [...rows, ...rest.children] };
}

/** What stands in for `text.slice(from, to)`: as many line feeds, then as many spaces as its last line is long. */
function blankOut(text: string, from: number, to: number): string {
  const lastBreak = text.lastIndexOf('\n', to - 1);
  if (lastBreak < from) return ' '.repeat(to - from);
  let breaks = 0;
  for (let at = text.indexOf('\n', from); at !== -1 && at <= lastBreak; at = text.indexOf('\n', at + 1)) breaks++;
  return '\n'.repeat(breaks) + ' '.repeat(to - lastBreak - 1);
}
