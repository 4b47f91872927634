/**
 * Drops the components no operation uses: with sign-in on, a caller who may only read is shown no write, so the
 * form, write-result and request schemas, the method override and the write-only error responses go too. A
 * component counts as used when the paths reference it, directly or through other components. Pure.
 */
import type { OpenAPIV3_1 } from 'openapi-types';

type Components = NonNullable<OpenAPIV3_1.Document['components']>;

/** The kinds of component referenced with `$ref`; security schemes are named by security requirements instead. */
const pruned = ['schemas', 'parameters', 'responses'] as const;

/** Every `#/components/...` reference in `value`, at any depth. */
function refsIn(value: unknown, into: string[] = []): string[] {
  if (Array.isArray(value)) for (const item of value) refsIn(item, into);
  else if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      if (key === '$ref' && typeof item === 'string' && item.startsWith('#/components/')) into.push(item);
      else refsIn(item, into);
    }
  }
  return into;
}

/** `#/components/schemas/Item.Row` → the component, found by kind and name (names hold no `/`). */
function target(components: Components, ref: string): unknown {
  const [kind = '', name = ''] = ref.slice('#/components/'.length).split('/');
  return (components as Record<string, Record<string, unknown> | undefined>)[kind]?.[name];
}

export function usedComponents(paths: unknown, components: Components): Components {
  const used = new Set<string>();
  const pending = refsIn(paths);
  for (let ref = pending.pop(); ref !== undefined; ref = pending.pop()) {
    if (used.has(ref)) continue;
    used.add(ref);
    refsIn(target(components, ref), pending);
  }
  const kept = { ...components };
  for (const kind of pruned) {
    const entries = Object.entries(components[kind] ?? {});
    const usedEntries = entries.filter(([name]) => used.has(`#/components/${kind}/${name}`));
    (kept as Record<string, unknown>)[kind] = Object.fromEntries(usedEntries);
  }
  return kept;
}
