/**
 * What the OpenAPI document says about sign-in when it is on: the bearer scheme (a JWT in the Authorization
 * header) required by every operation, and the 401 and 403 every operation can answer with. Pure; without
 * sign-in the document has none of it.
 */
import type { OpenAPIV3_1 } from 'openapi-types';
import { errorRefs, signInStatuses } from './error-responses';
import { isMethod, type PathItem } from './path-item';

export const bearerSchemeName = 'bearer';

export const bearerScheme: OpenAPIV3_1.HttpSecurityScheme = {
  type: 'http',
  scheme: 'bearer',
  bearerFormat: 'JWT',
  description:
    "A JSON Web Token from the service's issuer, in `Authorization: Bearer <token>`. What a caller may do depends on its roles: this document lists only the operations the caller that fetched it may use.",
};

/** Every operation of the paths that needs the token, with the 401 and 403 responses added. */
export function withSignInResponses(paths: Record<string, PathItem>): Record<string, PathItem> {
  const refs = errorRefs(signInStatuses);
  return Object.fromEntries(
    Object.entries(paths).map(([path, item]): [string, PathItem] => [
      path,
      Object.fromEntries(
        Object.entries(item).map(([key, value]) => {
          const operation = value as OpenAPIV3_1.OperationObject;
          // an operation open to everyone (the health checks) says so with `security: []`
          if (!isMethod(key) || operation.security?.length === 0) return [key, value];
          return [key, { ...operation, responses: sortedResponses({ ...operation.responses, ...refs }) }];
        }),
      ) as PathItem,
    ]),
  );
}

function sortedResponses(responses: OpenAPIV3_1.ResponsesObject): OpenAPIV3_1.ResponsesObject {
  return Object.fromEntries(Object.entries(responses).sort(([a], [b]) => a.localeCompare(b)));
}
