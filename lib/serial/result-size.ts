/**
 * The result-size limit, kept while a read's rows arrive rather than after they are all in memory: a running
 * count of the bytes the body will at least take, and a 413 as soon as it is over the limit. Pure.
 *
 * The count is a lower bound, so it never refuses a body that fits: it adds the text of each value the body will
 * hold (a hierarchical parent's values once, as group-rows writes them), and every value is written out at least
 * that long (strings as they are, or longer when escaped, and UTF-8 takes at least a byte per UTF-16 unit; numbers
 * with their digits; bytes as base64; booleans as `true`/`false`). NULL counts nothing: XML leaves it out. The
 * exact size is still checked on the serialized body (checkResultSize).
 */
import { TooLargeError } from '../errors';
import type { SqlResource } from '../resource';
import { fieldsAt } from '../resource-levels';
import type { Row, Value } from '../values';
import { parentIdentity } from './group-rows';

function valueLength(value: Value | undefined): number {
  if (value === null || value === undefined) return 0;
  if (typeof value === 'string') return value.length;
  if (value instanceof Uint8Array) return value.byteLength;
  if (typeof value === 'boolean') return 4;
  return String(value).length;
}

function rowLength(row: Row, labels: readonly string[]): number {
  let length = 0;
  for (const label of labels) length += valueLength(row[label]);
  return length;
}

function resultTooLarge(maxBytes: number): TooLargeError {
  return new TooLargeError(
    'result_too_large',
    `The result is larger than ${maxBytes} bytes; page it with _limit and _offset, or narrow it with filters`,
  );
}

/** Counts each batch of rows of a read of `resource` as it arrives; throws result_too_large once over `maxBytes`. */
export function meterResult(resource: SqlResource, maxBytes: number): (rows: readonly Row[]) => void {
  let bytes = 0;
  if (resource.kind === 'flat') {
    const labels = resource.fields.map((f) => f.label);
    return (rows) => {
      for (const row of rows) bytes += rowLength(row, labels);
      if (bytes > maxBytes) throw resultTooLarge(maxBytes);
    };
  }
  const parentLabels = fieldsAt(resource, 'parent').map((f) => f.label);
  const childLabels = fieldsAt(resource, 'child').map((f) => f.label);
  const identity = parentIdentity(resource);
  const seen = new Set<string>();
  return (rows) => {
    for (const row of rows) {
      const id = identity(row);
      if (!seen.has(id)) {
        seen.add(id);
        bytes += rowLength(row, parentLabels);
      }
      bytes += rowLength(row, childLabels);
    }
    if (bytes > maxBytes) throw resultTooLarge(maxBytes);
  };
}

/** The exact check, on the body as written. */
export function checkResultSize(body: string, maxBytes: number): void {
  // a UTF-8 byte is at most 3 per UTF-16 unit: most bodies are under the limit without counting their bytes
  if (body.length * 3 > maxBytes && Buffer.byteLength(body) > maxBytes) throw resultTooLarge(maxBytes);
}
