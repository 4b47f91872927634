/**
 * Definitions from a folder: `a.b.Name` is `{dir}/a/b/Name.xml`. The version is the file's mtime and size,
 * so a changed file is noticed by revalidation without reading it. File system IO only.
 */
import { readdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { snapshotFileName } from './catalog-snapshot';
import type { DefinitionSource, StoredDefinition } from './definition-source';
import { locateDefinition, nameOfLocation, resourceNotFound } from './locate-definition';

/** No definition there: no such file, a path through a file, a folder, or a name longer than the file system allows. */
const gone = new Set(['ENOENT', 'ENOTDIR', 'EISDIR', 'ENAMETOOLONG']);

/** One closure, one function: the source's methods share its folder. */
export function fileSource(dir: string): DefinitionSource {
  const root = path.resolve(dir);
  const versionOf = async (file: string) => {
    const info = await stat(file);
    if (!info.isFile()) throw Object.assign(new Error('not a file'), { code: 'EISDIR' });
    return `${info.mtimeMs}:${info.size}`;
  };
  const read = async (name: string): Promise<StoredDefinition> => {
    const { file, expected } = locateDefinition(name, root);
    if (!file) throw resourceNotFound(name, expected);
    try {
      const version = await versionOf(file);
      return { name, location: file, xml: await readFile(file, 'utf8'), version };
    } catch (error) {
      if (gone.has((error as NodeJS.ErrnoException).code ?? '')) throw resourceNotFound(name, expected, error);
      throw error;
    }
  };
  return {
    root,
    read,
    async revalidate(known) {
      const version = await versionOf(known.location).catch(() => null);
      if (version === null) return null;
      return version === known.version ? 'unchanged' : read(known.name);
    },
    async list() {
      const files = await readdir(root, { recursive: true }).catch(() => [] as string[]);
      return files
        .map((file) => nameOfLocation(path.join(root, file), root))
        .filter((name): name is string => name !== null)
        .sort();
    },
    async readSnapshot() {
      const location = path.join(root, snapshotFileName);
      try {
        return { location, text: await readFile(location, 'utf8') };
      } catch (error) {
        if (gone.has((error as NodeJS.ErrnoException).code ?? '')) return null;
        throw error;
      }
    },
    async writeSnapshot(text) {
      const location = path.join(root, snapshotFileName);
      // a container starting meanwhile reads the old snapshot or the new one, never half of one
      const partial = `${location}.${process.pid}.partial`;
      await writeFile(partial, text);
      await rename(partial, location);
      return location;
    },
  };
}
