/**
 * The route a path was served by, as serverless.yml names it (`/res/{resName}/{resId+}`): what the log shows
 * instead of the path, which holds the resource's keys. A path no route names is `*` (the catch-all), so no text
 * of the client's reaches the log this way. Pure.
 */
const routes: readonly (readonly [RegExp, string])[] = [
  [/^\/res\/?$/, '/res'],
  [/^\/openapi\.json$/, '/openapi.json'],
  [/^\/res\/[^/]+\/?$/, '/res/{resName}'],
  [/^\/res\/[^/]+\/.+$/, '/res/{resName}/{resId+}'],
  [/^\/conf\/[^/]+\/[^/]+$/, '/conf/{what}/{resName}'],
  [/^\/xsd\/[^/]+$/, '/xsd/{file}'],
  [/^\/health$/, '/health'],
  [/^\/health\/db$/, '/health/db'],
];

export function routeOf(path: string): string {
  return routes.find(([pattern]) => pattern.test(path))?.[1] ?? '*';
}
