/**
 * If-Match on a write by key, inside its transaction and before anything is written: the rows it addresses are
 * locked (SELECT ... FOR UPDATE on the Parent table, so a second conditional write of the same row waits for the
 * first to commit), then each row's current version must be one the client sent; any other, or a row that no longer
 * exists (or that the resource does not show the caller), is a 412 naming it, and the transaction rolls back.
 */
import type { Executor } from '../db/database';
import { sqlShapeOf } from '../db/engines/registry';
import { matchesStrongly } from '../entity-tags';
import { PreconditionError } from '../errors';
import type { Key } from '../plan/plan';
import type { VersionCheck } from '../plan/plan-preconditions';
import type { SqlResource } from '../resource';
import { tableOf } from '../resource-levels';
import { compileSelectWhere } from '../sql/compile-select';
import { labelsOf, namedKey } from './shown-rows';
import { chunks } from './statement-size';
import { byKey } from './table-links';

/**
 * A row's current entity tags, one per representation a client may have read it in (the answer's first); none when
 * the row is not there. Serializing is not this stage's work, so the caller supplies it.
 */
export type RowTags = (tx: Executor, key: Key, every: boolean) => Promise<readonly string[]>;

export async function checkVersions(
  tx: Executor,
  resource: SqlResource,
  check: VersionCheck,
  tagsOf: RowTags,
): Promise<void> {
  const parent = tableOf(resource, 'Parent');
  const shape = sqlShapeOf(resource.engine);
  for (const chunk of chunks(check.keys))
    await tx.run(compileSelectWhere(shape, parent, parent.primaryKey, [byKey(parent, chunk)], true));
  for (const key of check.keys) {
    const tags = await tagsOf(tx, key, true);
    if (tags.some((tag) => matchesStrongly(check.tags, tag))) continue;
    const row = namedKey(labelsOf(resource, false), key);
    throw new PreconditionError(
      'precondition_failed',
      tags.length === 0
        ? `Row ${row} of ${resource.name} does not exist, so If-Match cannot hold; nothing was written`
        : `Row ${row} of ${resource.name} has changed since the version in If-Match was read; nothing was written (read it again for its ETag)`,
    );
  }
}
