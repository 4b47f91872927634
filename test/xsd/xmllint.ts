/**
 * Validates XML documents against the service's schemas with libxml2, the reference XSD 1.0 validator, as the
 * npm package xmllint-wasm (libxml2's xmllint compiled to WebAssembly), so `npm test` needs nothing installed
 * beyond npm's packages.
 */
import { validateXML } from 'xmllint-wasm';
import { requestXsd } from '../../lib/xsd/request-xsd';
import { responseXsd } from '../../lib/xsd/response-xsd';

export type SchemaName = 'Request.xsd' | 'Response.xsd';

export interface Verdict {
  readonly valid: boolean;
  /** xmllint's messages, naming the offending element. */
  readonly output: string;
}

const schemas: Record<SchemaName, string> = { 'Request.xsd': requestXsd, 'Response.xsd': responseXsd };

export async function validate(schema: SchemaName, document: string): Promise<Verdict> {
  const result = await validateXML({
    xml: [{ fileName: 'document.xml', contents: document }],
    schema: [{ fileName: schema, contents: schemas[schema] }],
  });
  return { valid: result.valid, output: result.rawOutput.trim() };
}

/** Fails with xmllint's own message, so a failing document says why. */
export async function expectValid(schema: SchemaName, document: string): Promise<void> {
  const verdict = await validate(schema, document);
  if (!verdict.valid) throw new Error(`Not valid against ${schema}:\n${verdict.output}\nDocument:\n${document}`);
}

export async function expectInvalid(schema: SchemaName, document: string, reason: RegExp): Promise<void> {
  const verdict = await validate(schema, document);
  if (verdict.valid) throw new Error(`Valid against ${schema} but must not be:\n${document}`);
  expect(verdict.output).toMatch(reason);
}
