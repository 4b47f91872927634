/**
 * Plans what a write's If-Match asks, and what the write tells back: the rows it addresses by key (the key in the
 * path, or each row of the body), whose versions must be among the tags sent, checked in the write's transaction
 * with the rows locked; and for a conditional PUT by path key, the row's key once written, whose new ETag the answer
 * carries.
 * A resource whose definition requires If-Match refuses a write by key without it (428). Pure.
 */

import type { EntityTags } from '../entity-tags';
import { BadRequestError, PreconditionError } from '../errors';
import type { WriteRequest } from '../request/resource-request';
import type { SqlResource } from '../resource';
import { keyText } from '../values';
import type { Key, WritePlan } from './plan';
import { parentKeyFields } from './resource-fields';

/** The rows (by Parent key) whose current version must be one of `tags` before anything is written. */
export interface VersionCheck {
  readonly tags: EntityTags;
  readonly keys: readonly Key[];
}

/**
 * The If-Match check of a write: undefined without If-Match (a 428 where the resource requires it and the write is by
 * key), a 400 when the write does not address its rows by key.
 */
export function planVersionCheck(
  resource: SqlResource,
  request: Pick<WriteRequest, 'op' | 'ifMatch'>,
  plan: WritePlan,
): VersionCheck | undefined {
  const keys = addressedKeys(plan);
  if (request.ifMatch === undefined) {
    if (resource.ifMatchRequired && keys !== undefined && keys.length > 0) {
      throw new PreconditionError(
        'precondition_required',
        `Resource ${resource.name} requires If-Match on a write by key: read the row first and send its ETag as If-Match`,
      );
    }
    return undefined;
  }
  if (keys === undefined) {
    throw new BadRequestError(
      'bad_header',
      request.op === 'insert'
        ? 'If-Match is for PUT and DELETE of rows by key; a POST creates rows, which have no version yet'
        : `If-Match is for a ${request.op === 'update' ? 'PUT' : 'DELETE'} of rows by key (in the path or in the body); this one chooses its rows by query filters`,
    );
  }
  return { tags: request.ifMatch, keys };
}

/**
 * A conditional PUT by path key: the row's key once written (an update may change it), read back in the transaction
 * for the row's new ETag, so the client can send its next write with it. A PUT without If-Match is not read back: it
 * stays one statement, and a client that wants the new version reads the row.
 */
export function planWrittenKey(
  resource: SqlResource,
  request: Pick<WriteRequest, 'op' | 'pathKeys' | 'ifMatch'>,
  plan: WritePlan,
): Key | undefined {
  const byPathKey = request.op === 'update' && request.pathKeys.length > 0;
  return byPathKey && request.ifMatch !== undefined ? keyAfter(resource, plan) : undefined;
}

/** The Parent keys a write addresses, each once; undefined when it chooses rows by filter or inserts. */
function addressedKeys(plan: WritePlan): Key[] | undefined {
  if (plan.kind === 'insert') return undefined;
  const targets = plan.kind === 'update' ? plan.updates.map((u) => u.target) : [plan.target];
  const keys: Key[] = [];
  for (const target of targets) {
    if (target.kind === 'filter') return undefined;
    keys.push(...target.keys);
  }
  for (const change of plan.children) keys.push(change.parentKey);
  return [...new Map(keys.map((key) => [keyText(key), key])).values()];
}

/** The path's row once updated: its key columns take the values the update sets. */
function keyAfter(resource: SqlResource, plan: WritePlan): Key | undefined {
  if (plan.kind !== 'update') return undefined;
  const [update] = plan.updates;
  const key = update?.target.kind === 'keys' ? update.target.keys[0] : plan.children[0]?.parentKey;
  if (!key) return undefined;
  const set = update?.parent ?? {};
  const columns = parentKeyFields(resource).map((field) => field.column);
  return key.map((value, i) => {
    const column = columns[i];
    return column != null && column in set ? (set[column] ?? null) : value;
  });
}
