/** A benchmark's command-line option: the word after `name` in its arguments (`--rows 1000`), or undefined. */
export function option(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  return at < 0 ? undefined : process.argv[at + 1];
}

/** The databases a benchmark runs on: `--pg` and `--mysql` (else TEST_PG_URL, TEST_MYSQL_URL); the embedded PGlite demo without either. */
export function benchDatabases(value: (flag: string) => string | undefined = option): { db: string; url?: string }[] {
  const pg = value('--pg') ?? process.env.TEST_PG_URL;
  const my = value('--mysql') ?? process.env.TEST_MYSQL_URL;
  const databases = [...(pg ? [{ db: 'postgres', url: pg }] : []), ...(my ? [{ db: 'mariadb', url: my }] : [])];
  return databases.length > 0 ? databases : [{ db: 'pglite' }];
}
