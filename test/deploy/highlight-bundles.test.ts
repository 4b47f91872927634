/**
 * highlight.js (the /conf/definition page's highlighting) is bundled into the conf function alone: the /res
 * functions (read, insert, update, delete) and the catalogue are bundled as serverless.yml bundles them and carry
 * none of it.
 */
import { bundleHandler } from '../support/handler-bundle';

const options = {
  external: ['@aws-sdk/*', '@aws-lambda-powertools/tracer', 'jose'],
  define: { 'process.env.RRS_BUNDLE_ENGINE': JSON.stringify('postgres') },
};

const highlightInputs = (inputs: Record<string, { bytes: number }>) =>
  Object.entries(inputs).filter(([file]) => file.includes('node_modules/highlight.js/'));

it.each(['read', 'insert', 'update', 'delete', 'catalog'])('handlers/%s.ts bundles no highlight.js', async (name) => {
  const { metafile } = await bundleHandler(`handlers/${name}.ts`, options);
  expect(highlightInputs(metafile.inputs)).toEqual([]);
});

it('handlers/conf.ts bundles highlight.js core with its XML and SQL grammars only', async () => {
  const { metafile } = await bundleHandler('handlers/conf.ts', options);
  const files = highlightInputs(metafile.inputs).map(([file]) => file.replace(/^.*node_modules\/highlight\.js\//, ''));
  expect(files.sort()).toEqual(['lib/core.js', 'lib/languages/sql.js', 'lib/languages/xml.js']);
});
