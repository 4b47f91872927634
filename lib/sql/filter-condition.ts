/**
 * One filter of the query grammar as a SQL condition on a target (a label of the resource's query, or a column of
 * its table), its values bound as parameters. Pure.
 */
import type { TypedFilter } from '../plan/plan';
import type { ParamList } from './param-list';

const operators = { eq: '=', ne: '<>', lt: '<', le: '<=', gt: '>', ge: '>=' } as const;

export function filterCondition(filter: TypedFilter, target: string, params: ParamList): string {
  switch (filter.op) {
    case 'null':
      return `${target} IS NULL`;
    case 'notnull':
      return `${target} IS NOT NULL`;
    case 'like':
      return params.shape.like(target, filter.text, params.add(filter.value));
    case 'in':
      return `${target} IN (${filter.values.map((v) => params.add(v)).join(', ')})`;
    default:
      return `${target} ${operators[filter.op]} ${params.add(filter.value)}`;
  }
}
