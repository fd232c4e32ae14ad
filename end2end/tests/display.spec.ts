import { type Locator, type Page } from '@playwright/test';
import { expect, test } from './fixtures';

// The look (src/display.rs, style/display.css): dark and light themes (the system's until
// chosen), colour-blind-safe palettes for the figures, presentation mode for projectors.
//
// DOM contract: present (aria-pressed), theme, palette-weights, palette-differences;
// <html data-theme data-palette data-presenting>.

/** The mean lightness (0–1) of the cells of a heatmap canvas, read from its pixels. */
async function meanCellLightness(canvas: Locator): Promise<number> {
  return canvas.evaluate((el: HTMLCanvasElement) => {
    const [x0, y0, x1, y1] = el.getAttribute('data-cells')!.split(' ').map(Number);
    const rows = Number(el.getAttribute('data-rows'));
    const cols = Number(el.getAttribute('data-cols'));
    const ctx = el.getContext('2d')!;
    let sum = 0;
    for (let i = 0; i < rows; i++) {
      for (let j = 0; j < cols; j++) {
        const x = Math.floor(x0 + ((j + 0.5) * (x1 - x0)) / cols);
        const y = Math.floor(y0 + ((i + 0.5) * (y1 - y0)) / rows);
        const [r, g, b] = ctx.getImageData(x, y, 1, 1).data;
        sum += (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255;
      }
    }
    return sum / (rows * cols);
  });
}

const background = (page: Page) =>
  page.evaluate(() => getComputedStyle(document.body).backgroundColor);

test('the theme follows the system until one is chosen, and is remembered', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.goto('/');
  await expect(page.locator('html')).not.toHaveAttribute('data-theme', /.+/);
  expect(await background(page)).toBe('rgb(21, 24, 28)');
  await page.emulateMedia({ colorScheme: 'light' });
  expect(await background(page)).toBe('rgb(255, 255, 255)');
  await page.getByTestId('theme').selectOption('dark');
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  expect(await background(page)).toBe('rgb(21, 24, 28)');
  await page.reload();
  await expect(page.getByTestId('theme')).toHaveValue('dark');
  expect(await background(page)).toBe('rgb(21, 24, 28)');
  await page.getByTestId('theme').selectOption('system');
  expect(await background(page)).toBe('rgb(255, 255, 255)');
});

test('viridis repaints every heatmap, and the choice is remembered', async ({ page }) => {
  await page.goto('/');
  const heatmap = page.getByTestId('heatmap').first();
  await expect(heatmap).toHaveAttribute('data-rendered-tokens', '11');
  // YlGnBu: most weights are small, so most cells are pale.
  expect(await meanCellLightness(heatmap)).toBeGreaterThan(0.75);
  await page.getByTestId('palette-weights').selectOption('viridis');
  await expect(page.locator('html')).toHaveAttribute('data-palette', 'viridis.rdbu');
  // viridis: small weights are dark purple.
  await expect.poll(() => meanCellLightness(heatmap)).toBeLessThan(0.3);
  await page.reload();
  await expect(page.getByTestId('palette-weights')).toHaveValue('viridis');
  await expect(page.getByTestId('heatmap').first()).toHaveAttribute('data-rendered-tokens', '11');
  await expect.poll(() => meanCellLightness(page.getByTestId('heatmap').first())).toBeLessThan(0.3);
  await page.getByTestId('palette-weights').selectOption('cividis');
  await page.getByTestId('palette-differences').selectOption('puor');
  await expect(page.locator('html')).toHaveAttribute('data-palette', 'cividis.puor');
});

test('presentation mode: large type and figures, secondary panels hidden, a clicker steps the lesson', async ({ page }) => {
  await page.goto('/#lesson=masks');
  const bar = page.getByTestId('lesson-bar');
  const first = await bar.getAttribute('data-step');
  const heatmap = page.getByTestId('heatmap').first();
  await expect(heatmap).toHaveAttribute('data-rendered-tokens', /\d+/);
  const rootSize = () => page.evaluate(() => getComputedStyle(document.documentElement).fontSize);
  expect(await rootSize()).toBe('18px');
  await page.getByTestId('present').click();
  await expect(page.locator('html')).toHaveAttribute('data-presenting', 'true');
  await expect(page.getByTestId('present')).toHaveAttribute('aria-pressed', 'true');
  expect(await rootSize()).toBe('24px');
  await expect(page.getByTestId('share-link')).toBeHidden();
  await expect(page.getByTestId('about')).toBeHidden();
  // A presentation clicker sends PageDown and PageUp.
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('PageDown');
  await expect(bar).not.toHaveAttribute('data-step', first!);
  await page.keyboard.press('PageUp');
  await expect(bar).toHaveAttribute('data-step', first!);
  await page.keyboard.press('Escape');
  await expect(page.locator('html')).not.toHaveAttribute('data-presenting', /.+/);
  await expect(page.getByTestId('share-link')).toBeVisible();
});
