/**
 * A row's versions, for a write's If-Match and the ETag it answers with: the row read by its key through the
 * resource's query (as the caller reads it by the key in the path), regrouped and serialized as that read answers,
 * and each body's entity tag. So a tag a client got from GET /res/{name}/{key}, in XML, JSON or CSV, is one the write
 * recognizes, and the tag a write answers with is the one the next GET of the row will carry.
 */

import type { RowTags } from '../execute/check-versions';
import { executeRowRead } from '../execute/execute-plan';
import type { Claims } from '../plan/plan';
import { planRowRead } from '../plan/plan-read';
import type { SqlResource } from '../resource';
import { entityTag } from '../serial/entity-tag';
import { groupRows } from '../serial/group-rows';
import { csvType } from '../serial/serialize-csv';
import { serializeRead } from '../serial/serialize-read';
import type { OutputType } from '../values';

/**
 * The representations a client may have read a row in: XML, JSON, and CSV for a flat resource (a browser's HTML page
 * is not one a write is sent from).
 */
function rowRepresentations(resource: SqlResource): readonly (OutputType | typeof csvType)[] {
  return resource.kind === 'flat'
    ? ['application/xml', 'application/json', csvType]
    : ['application/xml', 'application/json'];
}

/** `answer`: the write's response type, whose tag comes first (the one a write answers with). */
export function rowTagsOf(resource: SqlResource, claims: Claims, answer: OutputType): RowTags {
  return async (tx, key, every) => {
    const rows = await executeRowRead(tx, resource, planRowRead(resource, key, claims));
    if (rows.length === 0) return [];
    const grouped = groupRows(resource, rows);
    const types = every ? [answer, ...rowRepresentations(resource).filter((type) => type !== answer)] : [answer];
    return Promise.all(types.map(async (type) => entityTag(await serializeRead(resource, grouped, type))));
  };
}
