/**
 * What every write planner takes: the request's operation, path keys, filters and the body's rows already read by
 * the resource's names; and how the rows are weighed in the slices they are planned in. Pure.
 */
import { BadRequestError } from '../errors';
import type { BodyRow, BodyType, RawFilter } from '../request/resource-request';

export interface WriteInput {
  readonly op: 'insert' | 'update' | 'delete';
  readonly pathKeys: readonly string[];
  readonly filters: readonly RawFilter[];
  readonly bodyType?: BodyType;
  /** The body's rows: one row for a form body; child rows when the parent is in the path. */
  readonly rows?: readonly BodyRow[];
}

/** A body row weighs one more for each child row in it, in the slices it is planned in. */
export const rowWeight = (row: BodyRow) => 1 + (row.children?.length ?? 0);

/** The body's rows; a write that needs rows and has none is a 400. */
export function bodyRows(input: WriteInput): readonly BodyRow[] {
  if (!input.rows || input.rows.length === 0) throw new BadRequestError('bad_body', 'The request body holds no rows');
  return input.rows;
}
