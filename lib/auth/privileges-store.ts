/**
 * The privileges file named by PRIVILEGES, a path or s3://bucket/key, kept while the container is warm and
 * revalidated like the definitions: at most every DEFINITIONS_TTL_S seconds, by the file's mtime and size or
 * the object's ETag (one conditional GET, shared by the requests that arrive meanwhile). A file that cannot be read
 * or parsed is a 500 for every request until it is fixed, never "allow all". IO: the file system, or S3 through a
 * module loaded only then.
 */
import path from 'node:path';
import { type Cache, createCache } from '../cache';
import type { Config } from '../config';
import { type Privileges, parsePrivileges } from './parse-privileges';
import { fileReader, type PrivilegesReader, type PrivilegesText } from './privileges-reader';

interface Loaded {
  readonly privileges: Privileges;
  readonly version: string;
}

let store: { readonly settings: Config; readonly cache: Cache<string, Loaded> } | undefined;
let warned = false;
/** The reader of the file in use, kept with its S3 client while the container is warm. */
let reader: { readonly location: string; readonly reader: PrivilegesReader } | undefined;

/** The privileges in force, or undefined when sign-in is on without a privileges file (nothing is granted). */
export async function privilegesOf(settings: Config): Promise<Privileges | undefined> {
  const location = settings.privileges;
  if (!location) {
    if (!warned) console.warn('Sign-in is on but PRIVILEGES names no privileges file: every request is denied');
    warned = true;
    return undefined;
  }
  return (await cacheFor(settings).get(location)).privileges;
}

function cacheFor(settings: Config): Cache<string, Loaded> {
  if (store?.settings !== settings) {
    // fresh for DEFINITIONS_TTL_S; then a request waits for the revalidation rather than being answered by
    // privileges that may have been revoked since; one file in use
    const cache = createCache<string, Loaded>({
      ttlMs: settings.definitionsTtlS * 1000,
      staleWhileRevalidate: false,
      max: 1,
      load: (location, stale) => loadPrivileges(readerFor(location, settings), location, stale),
    });
    store = { settings, cache };
  }
  return store.cache;
}

/** The file read, or the version known revalidated (kept when unchanged). */
async function loadPrivileges(read: PrivilegesReader, location: string, known?: Loaded): Promise<Loaded> {
  const answer = known ? await read.revalidate(known.version) : await read.read();
  if (answer === 'unchanged' && known) return known;
  const fresh = answer as PrivilegesText;
  return { privileges: parsePrivileges(fresh.text, location), version: fresh.version };
}

/** For tests that change the file or its location between cases. */
export function forgetPrivileges(): void {
  store = undefined;
  warned = false;
  reader = undefined;
}

function readerFor(location: string, settings: Config): PrivilegesReader {
  if (reader?.location !== location) reader = { location, reader: newReader(location, settings) };
  return reader.reader;
}

function newReader(location: string, settings: Config): PrivilegesReader {
  if (location.startsWith('s3://'))
    return (require('./s3-privileges') as typeof import('./s3-privileges')).s3PrivilegesReader(
      location,
      settings.awsRegion,
      settings.s3Endpoint,
    );
  return fileReader(path.resolve(location));
}
