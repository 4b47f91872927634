/**
 * Collects a statement's parameters while its text is written: `add` binds a value (as the engine's driver
 * takes it) and returns its placeholder. Values never enter the text. Pure.
 */

import type { SqlShape } from '../sql-shape';
import type { Value } from '../values';
import type { CompiledQuery } from './compiled-query';

export class ParamList {
  private readonly values: Value[];
  /** `bound`: the parameters of a statement this one's text takes in, already as the driver takes them. */
  constructor(
    readonly shape: SqlShape,
    bound: readonly Value[] = [],
  ) {
    this.values = [...bound];
  }

  add(value: Value): string {
    this.values.push(this.shape.toParam(value));
    return this.shape.placeholder(this.values.length);
  }

  compile(text: string, returning = false): CompiledQuery {
    return returning ? { text, params: this.values, returning } : { text, params: this.values };
  }
}
