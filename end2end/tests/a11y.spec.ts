import { type Page } from '@playwright/test';
import { seriousViolations } from './axe';
import { expect, test } from './fixtures';

// Accessibility: axe-core (from node_modules) on every main view and a lesson, in both
// languages and both themes: no serious or critical violation.

const VIEWS = ['lab', 'steps', 'block', 'positions', 'scaling', 'linear', 'decoding', 'lines', 'complexity', 'model'];

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

test("the keyboard moves between a heatmap's cells, each is announced, and its table holds the same values", async ({ page }) => {
  await page.goto('/');
  const heatmap = page.getByTestId('heatmap').first();
  await expect(heatmap).toHaveAttribute('data-rendered-tokens', '11');
  await heatmap.focus();
  const announce = page.getByTestId('heatmap-announce').first();
  await expect(announce).toHaveAttribute('aria-live', 'polite');
  await expect(announce).toHaveText(/^queries The \(0\), keys The \(0\): 0\.\d+$/);
  await page.keyboard.press('ArrowRight');
  await expect(announce).toHaveText(/^queries The \(0\), keys animal \(1\): /);
  await page.keyboard.press('ArrowDown');
  await expect(announce).toHaveText(/^queries animal \(1\), keys animal \(1\): 0\.\d+$/);
  const said = (await announce.innerText()).split(': ')[1];
  // The table alternative: every row and column, the same number.
  await page.getByTestId('heatmap-values').first().locator('summary').click();
  const table = page.getByTestId('heatmap-values-table').first();
  await expect(table.locator('tbody tr')).toHaveCount(11);
  await expect(table.locator('thead th')).toHaveCount(11);
  await expect(table.locator('tbody tr').nth(1).locator('td').nth(1)).toHaveText(said);
  // In 中文 the same cell is said in Chinese.
  await page.getByTestId('lang-zh').click();
  await heatmap.focus();
  await expect(announce).toHaveText(/^查询 animal（1），键 animal（1）：0\.\d+$/);
  await expect(page.getByTestId('heatmap-values').first().locator('summary')).toHaveText('数值表');
});
