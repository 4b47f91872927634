/**
 * D3 name lookup: a resource name → the file (or S3 key) that must hold its definition. Pure: computes the
 * location the same way for valid and invalid names and never touches the file system.
 */
import path from 'node:path';
import { NotFoundError } from '../errors';

const validName = /^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/;

export interface DefinitionLocation {
  /** Absolute file path, or null when the name can never reach a file (D3). */
  readonly file: string | null;
  /** The location the 404 names: the file path, or what it would be for an invalid name. */
  readonly expected: string;
}

export function locateDefinition(name: string, definitionsDir: string): DefinitionLocation {
  const relative = `${name.split('.').join('/')}.xml`;
  const expected = `${path.resolve(definitionsDir)}/${relative}`;
  return { file: validName.test(name) ? expected : null, expected };
}

/** The exact D3 404 body: `SQL Resource {name} not found - expected {location}`. */
export function resourceNotFound(name: string, expected: string): NotFoundError {
  return new NotFoundError('resource_not_found', `SQL Resource ${name} not found - expected ${expected}`);
}
