/**
 * Validates XML documents against the service's schemas with xmllint (libxml2-utils), the reference XSD 1.0
 * validator here. A missing xmllint throws, so the tests that need it fail with the fix in the message: they
 * must never skip.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { requestXsd } from '../../lib/xsd/request-xsd';
import { responseXsd } from '../../lib/xsd/response-xsd';

export type SchemaName = 'Request.xsd' | 'Response.xsd';

export interface Verdict {
  readonly valid: boolean;
  /** xmllint's messages, naming the offending element. */
  readonly output: string;
}

const missing = 'xmllint is missing: install libxml2-utils (apt-get install -y libxml2-utils); the XSD tests need it';

let folder: string | undefined;

/** Writes both schemas to a fresh folder once per test file (xmllint reads a schema from a file only). */
function schemaFile(name: SchemaName): string {
  if (folder === undefined) {
    folder = mkdtempSync(path.join(tmpdir(), 'rrs-xsd-'));
    writeFileSync(path.join(folder, 'Request.xsd'), requestXsd);
    writeFileSync(path.join(folder, 'Response.xsd'), responseXsd);
  }
  return path.join(folder, name);
}

export function removeSchemaFiles(): void {
  if (folder !== undefined) rmSync(folder, { recursive: true, force: true });
  folder = undefined;
}

/** Runs xmllint with the document on stdin: exit 0 valid, 3 invalid; anything else (5: the schema does not compile) throws. */
export function validate(schema: SchemaName, document: string): Verdict {
  const run = spawnSync('xmllint', ['--noout', '--nonet', '--schema', schemaFile(schema), '-'], {
    input: document,
    encoding: 'utf8',
  });
  if ((run.error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT') throw new Error(missing);
  if (run.error) throw run.error;
  const output = `${run.stdout}${run.stderr}`.trim();
  if (run.status !== 0 && run.status !== 3) throw new Error(`xmllint exited ${run.status}: ${output}`);
  return { valid: run.status === 0, output };
}

/** Fails with xmllint's own message, so a failing document says why. */
export function expectValid(schema: SchemaName, document: string): void {
  const verdict = validate(schema, document);
  if (!verdict.valid) throw new Error(`Not valid against ${schema}:\n${verdict.output}\nDocument:\n${document}`);
}

export function expectInvalid(schema: SchemaName, document: string, reason: RegExp): void {
  const verdict = validate(schema, document);
  if (verdict.valid) throw new Error(`Valid against ${schema} but must not be:\n${document}`);
  expect(verdict.output).toMatch(reason);
}
