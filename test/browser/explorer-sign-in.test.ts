/**
 * The API explorer with sign-in on, in a real browser (Chromium): `npm start` with local tokens (npm run token) and
 * the demo privileges file. The page is served without a token and asks for one before it loads anything; the
 * document it then shows is the token's (only what its roles may use), and a request tried from the page carries
 * the token.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { explorerPage } from '../../lib/http/serve-explorer';
import type { LocalProcess } from '../support/local-process';
import { root, serviceEnv } from '../support/local-process';
import { browserTestsRun, openBrowser, startService, type WatchedPage, watchedPage } from './browser';

it('shows the token field only when sign-in is on', () => {
  expect(explorerPage('', true)).toContain('<form id="rrs-token">');
  expect(explorerPage('', false)).toContain('<form id="rrs-token" hidden>');
  expect(explorerPage('', true)).toContain('data-sign-in="true"');
});

if (browserTestsRun()) {
  const signIn = {
    AUTH_ISSUER: 'rrs-local',
    AUTH_AUDIENCE: 'rrs',
    AUTH_JWKS_URL: 'file:.auth/jwks.json',
    PRIVILEGES: 'definitions/privileges.properties',
  };
  const tsx = path.join(root, 'node_modules', '.bin', 'tsx');
  const token = (role: string) =>
    execFileSync(tsx, ['scripts/token.ts', '--roles', role], {
      cwd: root,
      env: serviceEnv(signIn),
      encoding: 'utf8',
    }).trim();

  let service: LocalProcess | undefined;
  let base = '';
  let browser: Awaited<ReturnType<typeof openBrowser>> | undefined;
  let watched: WatchedPage;
  const tokens: Record<string, string> = {};

  beforeAll(async () => {
    for (const role of ['reader', 'auditor']) tokens[role] = token(role);
    browser = await openBrowser();
    ({ base, service } = await startService(signIn));
    watched = await watchedPage(browser, base);
    await watched.page.goto(`${base}/explorer`);
  }, 130_000);

  afterAll(async () => {
    await browser?.close();
    await service?.stop();
  });

  /** Pastes a token into the page's field, and waits for the document it loads to be shown. */
  async function useToken(value: string): Promise<string[]> {
    const { page } = watched;
    const loaded = page.waitForResponse((response) => new URL(response.url()).pathname === '/openapi.json');
    await page.getByLabel('Bearer token').fill(value);
    await page.getByRole('button', { name: 'Use token' }).click();
    expect((await (await loaded).request().headerValue('authorization')) ?? '').toBe(`Bearer ${value}`);
    await page.locator('.opblock-tag').first().waitFor();
    const tags = await page.locator('.opblock-tag').allInnerTexts();
    return tags.map((tag) => tag.split('\n')[0]?.trim() ?? '');
  }

  it('asks for a token, and loads no document without one', async () => {
    const { page } = watched;
    await page.getByText('paste a bearer token').waitFor();
    expect(await page.getByLabel('Bearer token').isVisible()).toBe(true);
    expect(watched.requested.some((url) => url.includes('/openapi.json'))).toBe(false);
    expect(await page.locator('.opblock').count()).toBe(0);
    expect({ problems: watched.problems, outside: watched.outside }).toEqual({ problems: [], outside: [] });
  });

  it("shows only what the token's roles may use", async () => {
    const auditor = await useToken(tokens.auditor as string);
    expect(auditor).toContain('PriceHistory');
    expect(auditor).not.toContain('Book');
    const reader = await useToken(tokens.reader as string);
    expect(reader).toEqual(expect.arrayContaining(['Book', 'PriceHistory', 'Publisher']));
  });

  it('sends the token with a GET tried from the page, and shows the rows', async () => {
    const { page } = watched;
    const operation = page.locator('#operations-Publisher-readPublisher');
    await operation.locator('.opblock-summary-control').click();
    await operation.getByRole('button', { name: 'Try it out' }).click();
    const sent = page.waitForRequest((request) => new URL(request.url()).pathname === '/res/Publisher');
    await operation.getByRole('button', { name: 'Execute' }).click();
    const request = await sent;
    expect(await request.headerValue('authorization')).toBe(`Bearer ${tokens.reader}`);
    expect((await request.response())?.status()).toBe(200);
    await operation
      .locator('.live-responses-table pre', { hasText: /publisher/ })
      .first()
      .waitFor();
    expect({ problems: watched.problems, outside: watched.outside }).toEqual({ problems: [], outside: [] });
  });
}
