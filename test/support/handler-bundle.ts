/**
 * A handler bundled in memory as serverless.yml bundles it (esbuild: node, cjs, minified, target node22), with its
 * metafile, and run as Node would run the file with a require() that records every module it asks for. For the
 * tests that prove what a bundle contains and what it loads when (the AWS SDK, the database drivers).
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { build, type Metafile, type Plugin } from 'esbuild';

const root = path.resolve(__dirname, '..', '..');

export interface BundleOptions {
  /** Left out of the bundle: required at run time, where `loadBundle` records it. */
  readonly external: readonly string[];
  readonly define?: Record<string, string>;
  /** serverless.yml's (scripts/deploy/bundle-plugins.js), when the test needs what they do. */
  readonly plugins?: readonly Plugin[];
}

export async function bundleHandler(
  entry: string,
  { external, define = {}, plugins = [] }: BundleOptions,
): Promise<{ code: string; metafile: Metafile }> {
  const result = await build({
    absWorkingDir: root,
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    target: 'node22',
    format: 'cjs',
    minify: true,
    external: [...external],
    define,
    plugins: [...plugins],
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  return { code: result.outputFiles[0]?.text ?? '', metafile: result.metafile };
}

/** Every way into `module` (a path as the metafile names it), as `importer kind`. */
export const reaching = (metafile: Metafile, module: string): string[] =>
  Object.entries(metafile.inputs).flatMap(([name, input]) =>
    input.imports.filter((i) => i.path === module).map((i) => `${name} ${i.kind}`),
  );

export interface LoadedBundle {
  readonly handler: (event: unknown) => Promise<{ statusCode: number; body: string }>;
  /** Every module name the bundle has required so far. */
  readonly required: string[];
}

/** Runs the bundle's top-level code as Node would run handlers/read.js, with a require() that records each call. */
export function loadBundle(code: string, missing: readonly string[] = []): LoadedBundle {
  const file = path.join(root, 'handlers', 'read.js');
  const realRequire = createRequire(file);
  const required: string[] = [];
  const record = (id: string) => {
    required.push(id);
    // a module left out of the package, as the Lambda runtime would not find it
    if (missing.includes(id))
      throw Object.assign(new Error(`Cannot find module '${id}'`), { code: 'MODULE_NOT_FOUND' });
    return realRequire(id);
  };
  const module = { exports: {} as Record<string, unknown> };
  new Function('exports', 'require', 'module', '__filename', '__dirname', code)(
    module.exports,
    record,
    module,
    file,
    path.dirname(file),
  );
  return { handler: module.exports.handler as LoadedBundle['handler'], required };
}
