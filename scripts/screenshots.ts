/**
 * `npm run screenshots`: starts the demo service (`npm start`: the embedded database, sign-in off, on a free port)
 * and writes a PNG of each of its pages as Chromium shows them, at a desktop and a narrow (phone) width, into
 * docs/screenshots/ (or the folder given as the first argument), so a person can look at them all at once: the
 * resource listing, a documentation page, a rows page, a definition, the metadata and the API explorer. Needs
 * Chromium at /usr/bin/chromium (apt-get install chromium). Only explorer-desktop.png is kept in git (the README
 * shows it); the script overwrites it too.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { openBrowser, startService, watchedPage } from '../test/browser/browser';

/** Each page: its file name, its path, and what to wait for before the picture is taken. */
const pages = [
  { name: 'listing', path: '/res', ready: 'table' },
  { name: 'documentation', path: '/conf/documentation/Book', ready: 'h1' },
  { name: 'rows', path: '/res/Book?_limit=10', ready: 'body' },
  { name: 'definition', path: '/conf/definition/Book', ready: 'body' },
  { name: 'metadata', path: '/conf/metadata/Book', ready: 'body' },
  { name: 'explorer', path: '/explorer', ready: '.opblock' },
] as const;

const widths = { desktop: 1280, narrow: 390 } as const;

async function main(): Promise<void> {
  const folder = path.resolve(process.argv[2] ?? path.join(__dirname, '..', 'docs', 'screenshots'));
  mkdirSync(folder, { recursive: true });
  const browser = await openBrowser();
  const { base, service } = await startService();
  try {
    for (const page of pages) {
      for (const [size, width] of Object.entries(widths)) {
        const watched = await watchedPage(browser, base, width);
        await watched.page.goto(`${base}${page.path}`);
        await watched.page.locator(page.ready).first().waitFor({ timeout: 30_000 });
        const file = path.join(folder, `${page.name}-${size}.png`);
        await watched.page.screenshot({ path: file });
        const problems = [...watched.problems, ...watched.outside.map((url) => `asked another host: ${url}`)];
        console.log(`${path.relative(process.cwd(), file)}  ${page.path}${problems.map((p) => `\n  ${p}`).join('')}`);
        await watched.page.close();
      }
    }
  } finally {
    await browser.close();
    await service.stop();
  }
}

main().catch((error: unknown) => {
  console.error(`npm run screenshots failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
