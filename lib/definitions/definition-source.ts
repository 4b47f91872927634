/**
 * Where definition files come from: a folder (default) or S3. A source reads one definition with a version
 * tag (file mtime+size, S3 ETag), tells whether a version is still current, and lists every definition name. It
 * also keeps the catalog snapshot beside the definitions (catalog-snapshot.ts).
 * Types only; implementations are file-source.ts and s3-source.ts.
 */

export interface StoredDefinition {
  readonly name: string;
  /** The file path or `s3://bucket/key` it was read from. */
  readonly location: string;
  readonly xml: string;
  readonly version: string;
}

export interface DefinitionSource {
  /** The folder (absolute) or `s3://bucket/prefix` that expected locations are computed from. */
  readonly root: string;
  /** One definition; throws the unknown-resource 404 when there is none. */
  read(name: string): Promise<StoredDefinition>;
  /** `unchanged` when `known` is still current, the new definition when it changed, null when it is gone. */
  revalidate(known: StoredDefinition): Promise<StoredDefinition | 'unchanged' | null>;
  /** Every definition name under the root (dots for folders), sorted. */
  list(): Promise<string[]>;
  /** The catalog snapshot beside the definitions (`{root}/catalog-snapshot.json`), or null when there is none. */
  readSnapshot(): Promise<{ readonly location: string; readonly text: string } | null>;
  /** Writes the catalog snapshot beside the definitions, replacing any; resolves to where it was written. */
  writeSnapshot(text: string): Promise<string>;
}
