/**
 * Reads every entry of a zip file, as serverless writes them (stored or deflated, no zip64), so the package
 * test can look inside the functions' zips without a zip library of its own. Reads only; pure apart from the
 * file read.
 */
import { readFileSync } from 'node:fs';
import { inflateRawSync } from 'node:zlib';

const endOfDirectory = 0x06054b50;
const directoryEntry = 0x02014b50;
const localHeader = 0x04034b50;

/** The entries' names and contents, in the zip's order. */
export function readZip(file: string): Map<string, Buffer> {
  const zip = readFileSync(file);
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (end < 0 || zip.readUInt32LE(end) !== endOfDirectory) throw new Error(`${file} is not a zip file`);
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  const entries = new Map<string, Buffer>();
  for (let i = 0; i < count; i++) {
    if (zip.readUInt32LE(at) !== directoryEntry) throw new Error(`${file}: broken central directory at ${at}`);
    const method = zip.readUInt16LE(at + 10);
    const size = zip.readUInt32LE(at + 20);
    const nameLength = zip.readUInt16LE(at + 28);
    const skipped = nameLength + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
    const name = zip.toString('utf8', at + 46, at + 46 + nameLength);
    const local = zip.readUInt32LE(at + 42);
    if (zip.readUInt32LE(local) !== localHeader) throw new Error(`${file}: broken entry ${name}`);
    const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const data = zip.subarray(start, start + size);
    if (method !== 0 && method !== 8) throw new Error(`${file}: entry ${name} uses compression method ${method}`);
    entries.set(name, method === 8 ? inflateRawSync(data) : Buffer.from(data));
    at += 46 + skipped;
  }
  return entries;
}
