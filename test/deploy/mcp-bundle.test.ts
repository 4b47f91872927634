/**
 * The MCP SDK (and the JSON Schema validator its tool calls use) is bundled into the mcp function alone: a /res
 * function, the catalogue and the fallback are bundled as serverless.yml bundles them and carry none of it.
 */
import { bundleHandler } from '../support/handler-bundle';

const options = {
  external: ['@aws-sdk/*', '@aws-lambda-powertools/tracer', 'jose'],
  define: { 'process.env.RRS_BUNDLE_ENGINE': JSON.stringify('postgres') },
};

const mcpInputs = (inputs: Record<string, { bytes: number }>) =>
  Object.keys(inputs).filter((file) => /node_modules\/(@modelcontextprotocol|ajv|zod)\//.test(file));

// read stands for the four /res functions, which bundle the same pipeline
it.each(['read', 'catalog', 'fallback'])('handlers/%s.ts bundles nothing of the MCP SDK, ajv or zod', async (name) => {
  const { metafile } = await bundleHandler(`handlers/${name}.ts`, options);
  expect(mcpInputs(metafile.inputs)).toEqual([]);
});

it('handlers/mcp.ts bundles the SDK server and its streamable HTTP transport, and no client', async () => {
  const { metafile } = await bundleHandler('handlers/mcp.ts', options);
  const files = mcpInputs(metafile.inputs);
  expect(files.some((file) => /\/sdk\/dist\/(esm|cjs)\/server\/webStandardStreamableHttp\.js$/.test(file))).toBe(true);
  expect(files.filter((file) => /\/sdk\/dist\/(esm|cjs)\/client\//.test(file))).toEqual([]);
});
