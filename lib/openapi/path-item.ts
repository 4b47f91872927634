/**
 * The path item type of the generated document. openapi-types' OpenAPIV3_1.PathItemObject intersects each method
 * with its OpenAPI 3.0 operation type, so a 3.1 operation whose schemas 3.0 cannot hold (`type: [t, "null"]`, 3.1
 * array items) does not fit; this is the same shape built from the 3.1 parts only. Types, and the test that tells a
 * method key of a path item from the others.
 */
import type { OpenAPIV3_1 } from 'openapi-types';

/** The methods the service serves on a path. */
export type Method = 'get' | 'put' | 'post' | 'delete';

export type PathItem = Pick<OpenAPIV3_1.PathItemObject, 'parameters'> & {
  [M in Method]?: OpenAPIV3_1.OperationObject;
};

const methods: ReadonlySet<string> = new Set<Method>(['get', 'put', 'post', 'delete']);

export const isMethod = (key: string): key is Method => methods.has(key);
