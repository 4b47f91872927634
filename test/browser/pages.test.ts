/**
 * The service's pages in a real browser (Chromium), on the embedded demo with sign-in off, as a person opens them:
 * the resource listing, a documentation page, a rows page and the API explorer load with no console error and
 * ask for nothing outside the service; the explorer lists the resources, a GET sent from its "Try it out"
 * shows rows, as JSON and as XML, and an insert with an XML body shows what it wrote.
 */
import { explorerPage } from '../../lib/http/serve-explorer';
import { routeTable } from '../../lib/routes';
import type { LocalProcess } from '../support/local-process';
import { browserTestsRun, openBrowser, startService, type WatchedPage, watchedPage } from './browser';

it('has the explorer page load only the Swagger UI files its route serves, and the service itself', () => {
  const html = explorerPage('/dev', false);
  const loaded = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
  const files = routeTable.find((row) => row.route === 'GET /explorer/{file}')?.values?.file ?? [];
  expect(loaded.filter((url) => url?.includes('/explorer/')).map((url) => url?.replace(/\?v=[\d.]+$/, ''))).toEqual(
    expect.arrayContaining(files.map((file) => `/dev/explorer/${file}`)),
  );
  expect(loaded.every((url) => url === 'data:,' || url?.startsWith('/dev/'))).toBe(true);
});

if (browserTestsRun()) {
  let service: LocalProcess | undefined;
  let base = '';
  let browser: Awaited<ReturnType<typeof openBrowser>> | undefined;

  beforeAll(async () => {
    browser = await openBrowser();
    ({ base, service } = await startService());
  }, 130_000);

  afterAll(async () => {
    await browser?.close();
    await service?.stop();
  });

  /** Opens `path`, waits for `selector`, and returns the watched page. */
  async function open(path: string, selector: string): Promise<WatchedPage> {
    const watched = await watchedPage(browser as NonNullable<typeof browser>, base);
    await watched.page.goto(`${base}${path}`);
    await watched.page.locator(selector).first().waitFor({ timeout: 30_000 });
    // what the browser asks for after the page is shown (its icon, say) counts too
    await watched.page.waitForLoadState('networkidle');
    return watched;
  }

  const clean = (watched: WatchedPage) => ({ problems: watched.problems, outside: watched.outside });

  it('shows the resource listing with no console error, asking nothing of another host', async () => {
    const watched = await open('/res', 'table');
    const text = await watched.page.locator('body').innerText();
    for (const name of ['Book', 'Inventory', 'PublisherBooks', 'bookstore.Author']) expect(text).toContain(name);
    expect(clean(watched)).toEqual({ problems: [], outside: [] });
  });

  it('shows a documentation page with no console error', async () => {
    const watched = await open('/conf/documentation/Book', 'h1');
    expect(await watched.page.locator('h1').innerText()).toContain('Book');
    expect(clean(watched)).toEqual({ problems: [], outside: [] });
  });

  it('shows the rows of a read as an HTML table with paging links', async () => {
    const watched = await open('/res/Book?_limit=5', 'body');
    const table = watched.page.locator('table');
    expect(await table.count()).toBeGreaterThan(0);
    expect(await table.first().locator('tr').count()).toBeGreaterThanOrEqual(6);
    expect(await watched.page.locator('a[href*="_offset=5"]').count()).toBeGreaterThan(0);
    expect(clean(watched)).toEqual({ problems: [], outside: [] });
  });

  describe('the explorer', () => {
    let watched: WatchedPage;

    beforeAll(async () => {
      watched = await open('/explorer', '.opblock');
    }, 60_000);

    it('asks for no token: sign-in is off', async () => {
      expect(await watched.page.getByLabel('Bearer token').isVisible()).toBe(false);
    });

    it('loads from the service alone, with no console error', () => {
      expect(clean(watched)).toEqual({ problems: [], outside: [] });
      expect(watched.requested.map((url) => new URL(url).pathname)).toEqual(
        expect.arrayContaining(['/explorer', '/explorer/swagger-ui.css', '/explorer/swagger-ui-bundle.js']),
      );
    });

    it('lists every resource of the demo, with its operations', async () => {
      const tags = await watched.page.locator('.opblock-tag').allInnerTexts();
      const names = tags.map((tag) => tag.split('\n')[0]?.trim());
      expect(names).toEqual(
        expect.arrayContaining(['Book', 'BookAuthors', 'Inventory', 'Publisher', 'PublisherBooks', 'bookstore.Author']),
      );
      const paths = await watched.page.locator('.opblock-summary-path').allInnerTexts();
      expect(paths).toEqual(expect.arrayContaining(['/res/Book', '/res/Book/{id}', '/res/Publisher']));
    });

    it.each([
      ['application/json', /"title": "Salt, Smoke & the Sailor's Daughter"/],
      ['application/xml', /<book id="1" publisher_id="1" title="Salt, Smoke &amp; the Sailor&apos;s Daughter"/],
    ])('sends a GET from "Try it out" and shows the rows, as %s', async (type, row) => {
      const { page } = watched;
      const operation = page.locator('#operations-Book-readBook');
      if (!(await operation.locator('.try-out__btn.cancel').isVisible())) {
        await operation.locator('.opblock-summary-control').click();
        await operation.getByRole('button', { name: 'Try it out' }).click();
      }
      await operation.locator('tr[data-param-name="_limit"] input').fill('2');
      await operation.locator('.responses-wrapper select.content-type').first().selectOption(type);
      const sent = page.waitForRequest((request) => new URL(request.url()).pathname === '/res/Book');
      await operation.getByRole('button', { name: 'Execute' }).click();
      const request = await sent;
      expect([request.url(), request.headers().accept]).toEqual([`${base}/res/Book?_limit=2`, type]);
      expect((await request.response())?.status()).toBe(200);
      // the body as the page shows it, once it is this request's
      await operation.locator('.live-responses-table pre', { hasText: row }).first().waitFor({ timeout: 10_000 });
      expect(clean(watched)).toEqual({ problems: [], outside: [] });
    });

    it('sends an insert with an XML body from "Try it out", and shows what was written', async () => {
      const { page } = watched;
      const operation = page.locator('#operations-Publisher-insertPublisher');
      await operation.locator('.opblock-summary-control').click();
      await operation.getByRole('button', { name: 'Try it out' }).click();
      await operation.getByLabel('Request content type').selectOption('application/xml');
      const body = '<request><publisher name="From the explorer" country="SE" founded="2026"/></request>';
      await operation.locator('textarea.body-param__text').fill(body);
      await operation.locator('.responses-wrapper select.content-type').first().selectOption('application/xml');
      const sent = page.waitForRequest((request) => new URL(request.url()).pathname === '/res/Publisher');
      await operation.getByRole('button', { name: 'Execute' }).click();
      const request = await sent;
      expect([request.method(), request.headers()['content-type'], request.postData()]).toEqual([
        'POST',
        'application/xml',
        body,
      ]);
      expect((await request.response())?.status()).toBe(200);
      const written = /<writeResponse rowsAffected="1">\s*<publisher id="\d+" name="From the explorer"/;
      await operation.locator('.live-responses-table pre', { hasText: written }).first().waitFor({ timeout: 10_000 });
      expect(clean(watched)).toEqual({ problems: [], outside: [] });
    });
  });
}
