import { test as base, expect } from '@playwright/test';

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
