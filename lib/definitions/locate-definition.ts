/**
 * Name lookup: a resource name → the file (or S3 object) that must hold its definition. Pure: computes the
 * location the same way for valid and invalid names and never touches the file system.
 */
import path from 'node:path';
import { NotFoundError } from '../errors';

const validName = /^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/;

/** The longest object key S3 stores, in bytes: a longer name can never reach a definition there. */
const maxS3KeyBytes = 1024;

export interface DefinitionLocation {
  /** Where the definition must be, or null when the name can never reach one. */
  readonly file: string | null;
  /** The location the 404 names: the file, or what it would be for an invalid name. */
  readonly expected: string;
}

/** The folder, resolved to an absolute path without following symlinks, or `s3://bucket/prefix` as it is. */
function normalRoot(root: string): string {
  return root.startsWith('s3://') ? root.replace(/\/+$/, '') : path.resolve(root);
}

/** `root` is the definitions folder or `s3://bucket/prefix`; every dot of the name is a level. */
export function locateDefinition(name: string, root: string): DefinitionLocation {
  const expected = `${normalRoot(root)}/${name.split('.').join('/')}.xml`;
  const tooLong =
    expected.startsWith('s3://') && Buffer.byteLength(expected.replace(/^s3:\/\/[^/]+\//, '')) > maxS3KeyBytes;
  return { file: validName.test(name) && !tooLong ? expected : null, expected };
}

/** The name a location under `root` stands for (the inverse of locateDefinition), or null. */
export function nameOfLocation(location: string, root: string): string | null {
  const prefix = `${normalRoot(root)}/`;
  if (!location.startsWith(prefix) || !location.endsWith('.xml')) return null;
  const name = location.slice(prefix.length, -'.xml'.length).split('/').join('.');
  return validName.test(name) ? name : null;
}

/** The exact unknown-resource 404 body: `SQL Resource {name} not found - expected {location}`. */
export function resourceNotFound(name: string, expected: string, cause?: unknown): NotFoundError {
  return new NotFoundError('resource_not_found', `SQL Resource ${name} not found - expected ${expected}`, cause);
}
