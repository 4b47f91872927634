/**
 * How a privileges file is read, wherever it is: the whole text with a version, or word that the version known is
 * still current. Here the reader of a file on disk (its version: mtime and size); s3-privileges.ts has the reader
 * of an S3 object. IO: the file system.
 */
import { readFile, stat } from 'node:fs/promises';
import { PrivilegesError } from './parse-privileges';

export interface PrivilegesText {
  readonly text: string;
  readonly version: string;
}

/** Reads the file, or tells that the version known is still current. */
export interface PrivilegesReader {
  read(): Promise<PrivilegesText>;
  revalidate(version: string): Promise<PrivilegesText | 'unchanged'>;
}

export function fileReader(file: string): PrivilegesReader {
  const fetch = async (known?: string): Promise<PrivilegesText | 'unchanged'> => {
    try {
      const info = await stat(file);
      const version = `${info.mtimeMs}:${info.size}`;
      if (version === known) return 'unchanged';
      return { text: await readFile(file, 'utf8'), version };
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? String(error);
      throw new PrivilegesError(`Privileges file ${file} cannot be read (${code})`, error);
    }
  };
  return { read: () => fetch() as Promise<PrivilegesText>, revalidate: fetch };
}
