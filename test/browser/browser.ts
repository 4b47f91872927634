/**
 * The browser tests' Chromium (Debian's, at /usr/bin/chromium, driven by playwright-core) and the service they
 * open it on (`npm start`: the embedded demo database, the function bundles as serverless-offline runs them). A
 * watched page records what a person would not see: console errors, uncaught exceptions, failed requests and any
 * request to a host other than the service's. Without Chromium the tests are left out, and the end of the run
 * says how to install it; CI (CI=true) runs them anyway, so there a missing Chromium fails them, saying so.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { inCi, noteMissingTool } from '../support/left-out';
import { freePort, type LocalProcess, root, serviceEnv, startProcess } from '../support/local-process';

/** Debian's Chromium, or the browser CHROMIUM_PATH names (a Chrome or Chromium of another system). */
export const chromiumPath = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

/**
 * Whether the file's browser tests are declared: with Chromium installed, or in CI. Otherwise notes them as left
 * out for want of Chromium. Call it where the file's tests are declared.
 */
export function browserTestsRun(): boolean {
  if (existsSync(chromiumPath) || inCi()) return true;
  noteMissingTool('chromium', 'install Chromium (Debian and Ubuntu: apt-get install chromium)');
  return false;
}

/** Headless Chromium, without the background requests (updates, safe browsing) that would leave the machine. */
export async function openBrowser(): Promise<Browser> {
  if (!existsSync(chromiumPath)) {
    throw new Error(`Chromium is missing at ${chromiumPath}: apt-get install chromium (as .ci/run does)`);
  }
  return chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    args: ['--no-sandbox', '--disable-background-networking'],
  });
}

/** `npm start` on a free port, with `env` on top of a clean environment; resolves with its base URL. */
export async function startService(env: Record<string, string> = {}): Promise<{ base: string; service: LocalProcess }> {
  const port = await freePort();
  const tsx = path.join(root, 'node_modules', '.bin', 'tsx');
  const service = await startProcess(
    tsx,
    ['scripts/start.ts'],
    serviceEnv({ ...env, PORT: String(port) }),
    'Stop with Ctrl-C',
  );
  return { base: `http://localhost:${port}`, service };
}

export interface WatchedPage {
  readonly page: Page;
  /** Console errors, uncaught exceptions and failed requests, as text. */
  readonly problems: string[];
  /** Every URL the page asked for that is not the service's (data: URLs aside). */
  readonly outside: string[];
  /** Every URL the page asked for. */
  readonly requested: string[];
}

/** A new page of `browser` that records its problems and the requests that leave `base`. */
export async function watchedPage(browser: Browser, base: string, width = 1280): Promise<WatchedPage> {
  const page = await browser.newPage({ viewport: { width, height: 900 } });
  const watched: WatchedPage = { page, problems: [], outside: [], requested: [] };
  const origin = new URL(base).origin;
  page.on('console', (message) => {
    if (message.type() === 'error') watched.problems.push(`console: ${message.text()} (${message.location().url})`);
  });
  page.on('pageerror', (error) => watched.problems.push(`exception: ${error.message}`));
  page.on('requestfailed', (request) => watched.problems.push(`failed: ${request.url()}`));
  page.on('request', (request) => {
    const url = request.url();
    watched.requested.push(url);
    if (!url.startsWith('data:') && new URL(url).origin !== origin) watched.outside.push(url);
  });
  return watched;
}
