// Debian's Chromium driven by playwright-core (no browser download: `.ci/run` installs the
// `chromium` package). Without it the browser tests are skipped with the reason printed, unless
// REQUIRE_BROWSER is set (CI sets it), when its absence is a failure.
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { chromium, type Browser, type Page } from 'playwright-core';

export const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
export const REPORTS = join(process.cwd(), 'reports', 'dashboard');

/** Why the browser tests cannot run here, or undefined when they can. */
export function browserMissing(): string | undefined {
  if (existsSync(CHROMIUM)) return undefined;
  const reason = `no Chromium at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH)`;
  if (process.env['REQUIRE_BROWSER']) throw new Error(`REQUIRE_BROWSER is set but there is ${reason}`);
  return reason;
}

export function launch(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    // Root in a container has no user namespace for the sandbox; the rest keeps Chromium from
    // reaching for Google's hosts, which this machine's closed network refuses.
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(REPORTS, { recursive: true });
  await page.screenshot({ path: join(REPORTS, `${name}.png`), fullPage: true });
}

/** axe-core's WCAG 2.1 A/AA rules on the page as it is; returns the serious and critical violations. */
export async function seriousViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
    .analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}
