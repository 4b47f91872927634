/**
 * Tool arguments checked against their tool's input schema, with ajv, one instance per container made at the first
 * call (a cold start that only lists tools never builds it), each schema compiled once and kept. Formats (`date`,
 * `byte`) are not checked here: the pipeline converts every value to its field's type and names the one that does
 * not convert. The SDK's own server takes the same instance for what it validates.
 */
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv-provider.js';
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import { createCache } from '../cache';

let shared: Ajv | undefined;
const ajv = (): Ajv => {
  shared ??= new Ajv({ allErrors: true, strict: false, validateFormats: false });
  return shared;
};

/** For the SDK's Server, which otherwise makes an ajv of its own (with every format) for each server built. */
export const sdkValidator = (): AjvJsonSchemaValidator => new AjvJsonSchemaValidator(ajv());

/**
 * Each tool's compiled check, by its schema's text (tools are built again for every request, from the same
 * definitions): kept while the container is warm, the least used of a few hundred going first.
 */
const validators = createCache<string, ValidateFunction>({
  ttlMs: Number.POSITIVE_INFINITY,
  staleWhileRevalidate: false,
  max: 500,
  load: async (schema) => ajv().compile(JSON.parse(schema)),
});

/** What is wrong with the arguments, each problem named by where it is (`rows/0/qty must be integer`); '' if nothing. */
export async function argumentProblems(schema: object, args: unknown): Promise<string> {
  const text = JSON.stringify(schema);
  const validate = validators.fresh(text) ?? (await validators.get(text));
  return validate(args) ? '' : describe(validate.errors ?? []);
}

function describe(errors: readonly ErrorObject[]): string {
  return errors
    .filter((e) => e.keyword !== 'anyOf')
    .map((e) => {
      const where = e.instancePath.slice(1) || 'the arguments';
      const extra = (e.params as { additionalProperty?: string }).additionalProperty;
      return extra === undefined ? `${where} ${e.message}` : `${where} has ${extra}, which is not one of its fields`;
    })
    .join('; ');
}
