/** A benchmark's command-line option: the word after `name` in its arguments (`--rows 1000`), or undefined. */
export function option(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  return at < 0 ? undefined : process.argv[at + 1];
}
