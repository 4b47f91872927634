/**
 * Names a parsed request by the operation it is (R1, R2, C1...D4, as docs/operations.md names them), for the log
 * and the metrics. Pure; it checks nothing (lib/plan refuses what does not apply).
 */
import type { Operation, ResourceRequest } from '../request/resource-request';

/** What tells operations of one method apart: the body (none, a form, rows, child rows) and a key in the path. */
type Shape = 'none' | 'form' | 'parents' | 'children';

/** By operation, shape, then [without a path key, with one]. */
const names: Readonly<Record<Operation, Readonly<Record<Shape, readonly [string, string]>>>> = {
  read: { none: ['R1', 'R2'], form: ['R1', 'R2'], parents: ['R1', 'R2'], children: ['R1', 'R2'] },
  insert: { none: ['C1', 'C1'], form: ['C1', 'C1'], parents: ['C2', 'C2'], children: ['C3', 'C3'] },
  update: { none: ['U2', 'U3'], form: ['U2', 'U3'], parents: ['U1', 'U1'], children: ['U4', 'U4'] },
  delete: { none: ['D2', 'D3'], form: ['D2', 'D3'], parents: ['D1', 'D1'], children: ['D4', 'D4'] },
};

function shapeOf(request: ResourceRequest): Shape {
  if (request.op === 'read' || request.body === undefined) return 'none';
  return request.body.type === 'form' ? 'form' : request.body.shape;
}

export function operationName(request: ResourceRequest): string {
  return names[request.op][shapeOf(request)][request.pathKeys.length > 0 ? 1 : 0];
}
