import { type Page } from '@playwright/test';
import { seriousViolations } from './axe';
import { expect, test } from './fixtures';

// Accessibility: axe-core (from node_modules) on every main view and a lesson, in both
// languages and both themes: no serious or critical violation.

const VIEWS = ['lab', 'steps', 'positions', 'scaling', 'linear', 'lines', 'complexity', 'model'];

async function open(page: Page, view: string) {
  if (view !== 'lab') await page.getByTestId(`page-${view}`).click();
  await expect(page.getByTestId(`page-${view}`)).toHaveAttribute('aria-selected', 'true');
  // Let the figures paint.
  await page.waitForTimeout(300);
}

for (const lang of ['en', 'zh']) {
  for (const theme of ['light', 'dark']) {
    test(`axe finds nothing serious on every view in ${lang}, ${theme}`, async ({ page }) => {
      test.setTimeout(180_000);
      await page.goto('/');
      await page.getByTestId(`lang-${lang}`).click();
      await page.getByTestId('theme').selectOption(theme);
      const found: string[] = [];
      for (const view of VIEWS) {
        await open(page, view);
        found.push(...(await seriousViolations(page)).map((v) => `${view}: ${v}`));
      }
      // A lesson step, with its bar and pointer.
      await page.goto('/#lesson=masks');
      await expect(page.getByTestId('lesson-bar')).toBeVisible();
      found.push(...(await seriousViolations(page)).map((v) => `lesson: ${v}`));
      expect(found).toEqual([]);
    });
  }
}
