import { type BrowserContext, type Page, test as base, expect } from '@playwright/test';

/** The sentence the app opens with. */
export const DEFAULT_SENTENCE = "The animal didn't cross the street because it was too tired";

/** Every test fails if the page logs a console error or throws, whatever else it checks. */
export const test = base.extend<{ errors: string[] }>({
  errors: [
    async ({ page }, use) => {
      const errors: string[] = [];
      page.on('console', (msg) => {
        if (msg.type() === 'error') errors.push(`console error: ${msg.text()}`);
      });
      page.on('pageerror', (err) => errors.push(`page error: ${err.message}`));
      await use(errors);
      expect(errors, 'console errors and uncaught exceptions').toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };

/** Switches the page to 中文 and waits until the switch and `<html lang>` say so. */
export async function toChinese(page: Page) {
  await page.getByTestId('lang-zh').click();
  await expect(page.getByTestId('lang-zh')).toHaveAttribute('aria-pressed', 'true');
  await expect(page.locator('html')).toHaveAttribute('lang', 'zh-Hans');
}

/** Slows the network (the page's and its workers') to `bytesPerSecond`, or restores it. */
export async function throttle(context: BrowserContext, page: Page, bytesPerSecond: number) {
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 0,
    downloadThroughput: bytesPerSecond,
    uploadThroughput: bytesPerSecond,
  });
}
