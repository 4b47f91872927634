/**
 * Plans an insert of the body's rows (a form's one row, or XML or JSON rows): each parent row with its extension
 * rows and, in a hierarchical resource, its child rows, values converted and checked; a slice of rows at a time.
 * Pure.
 */
import { BadRequestError } from '../errors';
import { mapInSlices } from '../map-in-slices';
import type { SqlResource } from '../resource';
import type { InsertRow, WritePlan } from './plan';
import { planChildRows } from './plan-children';
import { requireValues } from './require-values';
import { splitRow } from './resource-fields';
import { bodyRows, rowWeight, type WriteInput } from './write-input';

export async function planInsert(resource: SqlResource, input: WriteInput): Promise<WritePlan> {
  if (input.pathKeys.length > 0) {
    throw new BadRequestError(
      'bad_request',
      resource.kind === 'flat'
        ? `Resource ${resource.name} is flat: POST with a key in the path is for child rows`
        : `POST with a key in the path takes XML or JSON ${resource.childRowName} rows of that ${resource.rowName}`,
    );
  }
  if (input.filters.length > 0)
    throw new BadRequestError('bad_parameter', 'POST takes no query parameters but _output');
  const rows = await mapInSlices(
    bodyRows(input),
    async (row, i): Promise<InsertRow> => {
      const split = splitRow(resource, row.values);
      // a parent given with its key and children may exist already, and is then left as it is: only the database
      // can tell whether it is inserted
      if (!(row.children && split.key))
        requireValues(resource, split, 'parent', 'insert', `${resource.rowName} row ${i + 1}`);
      const children = row.children ? await planChildRows(resource, row.children, 'insert', i) : undefined;
      return { parent: split.values, extensions: split.extensions, key: split.key, children };
    },
    { weight: rowWeight },
  );
  return { kind: 'insert', rows };
}
