/**
 * An XML request body → its element tree: a well-formed document whose one root is `request`, attributes kept
 * exactly as written (entities decoded, no trimming, no number parsing), text other than whitespace refused.
 * The fast reader (scan-xml-body.ts, on saxes) reads it; whatever that reader declines — a malformed body among
 * them — the checked reader (read-xml-checked.ts, on fast-xml-parser) reads, and it names the first error with
 * its line and column. Both give the same tree wherever both read a body. `readXmlBodyInSlices` lets other
 * requests run between slices of a big body. Which element names a resource takes is the planner's business.
 * Pure: no IO, environment or clock.
 */
import { readXmlChecked } from './read-xml-checked';
import type { XmlElement } from './resource-request';
import { scanXmlBody } from './scan-xml-body';

/**
 * Characters read between two turns of the event loop: about a millisecond of work for ordinary rows, a few for a
 * body of nothing but tiny elements.
 */
export const xmlSliceLength = 16 * 1024;

export function readXmlBody(text: string): XmlElement {
  return scanXmlBody(text).finish() ?? readXmlChecked(text);
}

/** The same tree or error as readXmlBody, with a turn of the event loop after each slice of the text. */
export async function readXmlBodyInSlices(text: string): Promise<XmlElement> {
  const scan = scanXmlBody(text);
  for (let end = xmlSliceLength; end < text.length && scan.readTo(end); end += xmlSliceLength) {
    await new Promise((resolve) => setImmediate(resolve));
  }
  return scan.finish() ?? readXmlChecked(text);
}
