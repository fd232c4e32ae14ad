import { type Locator, type Page } from '@playwright/test';
import { expect, test } from './fixtures';

// The "Lines" view: token-to-token lines of the selected variant's heads.
//
// DOM contract (implemented by src/pages/lines/):
//   [data-testid=page-lines]                the tab
//   canvas[data-testid=lines-canvas]        data-rendered-tokens (queries, left),
//                                           data-rendered-keys (right), data-lines (lines
//                                           drawn), data-label-step, data-focus (q7 / k1 / "")
//   input[data-testid=head-toggle][data-head=h]   which heads draw their lines
//   select[data-testid=pick-variant]
//   [data-testid=lines-readout]             the focused token's strongest links:
//     [data-testid=lines-head-readout][data-head=h] > [data-testid=lines-link]
//       data-index (the other token), data-weight (exact)

const lines = (page: Page) => page.getByTestId('lines-canvas');
const pixels = (c: Locator) => c.evaluate((el) => (el as HTMLCanvasElement).toDataURL('image/png'));

async function openLines(page: Page) {
  await page.goto('/');
  await expect(page.getByTestId('heatmap')).toHaveAttribute('data-rendered-tokens', '11');
  await page.getByTestId('page-lines').click();
  await expect(lines(page)).toHaveAttribute('data-rendered-tokens', '11');
}

/** Points at query token `i` (left column) of an n-token figure. */
async function hoverQuery(page: Page, i: number, n: number) {
  // The token bands share the canvas height below the title and legend: find the row by
  // moving down the left column until the canvas reports the focus.
  const box = (await lines(page).boundingBox())!;
  for (let y = box.y + 60; y < box.y + box.height; y += 3) {
    await page.mouse.move(box.x + 30, y);
    const f = await lines(page).getAttribute('data-focus');
    if (f === `q${i}`) return;
    if (f && f.startsWith('q') && Number(f.slice(1)) > i) break;
  }
  throw new Error(`query ${i} of ${n} not found under the pointer`);
}

test('the canvas paints both columns and every line of the selected head', async ({ page }) => {
  await openLines(page);
  await expect(lines(page)).toHaveAttribute('data-rendered-keys', '11');
  await expect(lines(page)).toHaveAttribute('data-label-step', '1');
  // One head ticked (the lab's head 0): at most 11 × 11 lines, all weights > 0.005 drawn.
  const n = Number(await lines(page).getAttribute('data-lines'));
  expect(n).toBeGreaterThan(60);
  expect(n).toBeLessThanOrEqual(121);
  await expect(page.getByTestId('head-toggle')).toHaveCount(4);
  await expect(page.locator('[data-testid=head-toggle][data-head="0"]')).toBeChecked();
});

test('pointing at a token isolates it and lists its strongest keys with the lab\'s weights', async ({ page }) => {
  await page.goto('/');
  const heatmap = page.getByTestId('heatmap');
  await expect(heatmap).toHaveAttribute('data-rendered-tokens', '11');
  // The lab's weights of query 7 ("it"), head 0, read from the heatmap with the keyboard.
  await heatmap.focus();
  for (let i = 0; i < 7; i++) await page.keyboard.press('ArrowDown');
  const info = page.getByTestId('variant').first().getByTestId('cell-info').first();
  const lab: number[] = [];
  for (let j = 0; j < 11; j++) {
    await expect(info).toContainText(`(7) → key`);
    await expect(info).toContainText(`(${j}): weight`);
    lab.push(Number((await info.textContent())!.match(/weight ([0-9.e-]+)/)![1]));
    await page.keyboard.press('ArrowRight');
  }

  await page.getByTestId('page-lines').click();
  await expect(lines(page)).toHaveAttribute('data-rendered-tokens', '11');
  const before = await pixels(lines(page));
  await hoverQuery(page, 7, 11);
  await expect(lines(page)).toHaveAttribute('data-focus', 'q7');
  await expect.poll(() => pixels(lines(page)), { message: 'isolation repaints' }).not.toEqual(before);
  const readout = page.getByTestId('lines-readout');
  await expect(readout).toContainText('query “it” (7) attends most to');
  const links = readout.locator('[data-testid=lines-head-readout][data-head="0"] [data-testid=lines-link]');
  await expect(links).toHaveCount(3);
  const sorted = [...lab].sort((a, b) => b - a);
  for (let k = 0; k < 3; k++) {
    const index = Number(await links.nth(k).getAttribute('data-index'));
    const weight = Number(await links.nth(k).getAttribute('data-weight'));
    expect(weight).toBe(lab[index]);
    expect(weight).toBe(sorted[k]);
  }
  // The pointer leaves: every line again.
  await page.mouse.move(5, 5);
  await expect(lines(page)).toHaveAttribute('data-focus', '');
});

test('the keyboard moves the isolated token, across to the keys too', async ({ page }) => {
  await openLines(page);
  await lines(page).focus();
  await expect(lines(page)).toHaveAttribute('data-focus', 'q0');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  await expect(lines(page)).toHaveAttribute('data-focus', 'q2');
  await page.keyboard.press('ArrowRight');
  await expect(lines(page)).toHaveAttribute('data-focus', 'k2');
  await expect(page.getByTestId('lines-readout')).toContainText('key “didn\'t” (2) is attended most by');
  await page.keyboard.press('Escape');
  await expect(lines(page)).toHaveAttribute('data-focus', '');
});

test('ticking heads adds their coloured lines and legend entries', async ({ page }) => {
  await openLines(page);
  await lines(page).focus();
  const one = Number(await lines(page).getAttribute('data-lines'));
  const before = await pixels(lines(page));
  await page.locator('[data-testid=head-toggle][data-head="2"]').check();
  await page.locator('[data-testid=head-toggle][data-head="3"]').check();
  await expect.poll(async () => Number(await lines(page).getAttribute('data-lines'))).toBeGreaterThan(one);
  await expect.poll(() => pixels(lines(page))).not.toEqual(before);
  await expect(lines(page)).toHaveAttribute('aria-label', /lines for 3 head\(s\)/);
  await expect(page.getByTestId('lines-head-readout')).toHaveCount(3);
  // Untick every head: no line, and the figure says so.
  for (const h of ['0', '2', '3']) await page.locator(`[data-testid=head-toggle][data-head="${h}"]`).uncheck();
  await expect(lines(page)).toHaveAttribute('data-lines', '0');
  await expect(lines(page)).toHaveAttribute('aria-label', /lines for 0 head\(s\)/);
});

test('cross mode puts the target on the left and the source on the right', async ({ page }) => {
  await openLines(page);
  await page.getByTestId('mode-cross').check();
  await expect(lines(page)).toHaveAttribute('data-rendered-tokens', '4');
  await expect(lines(page)).toHaveAttribute('data-rendered-keys', '6');
  await lines(page).focus();
  await page.keyboard.press('ArrowRight');
  await expect(page.getByTestId('lines-readout')).toContainText('key “我” (0)');
});

test('a hundred tokens: labels are thinned, lines still drawn', async ({ page }) => {
  await openLines(page);
  const text = Array.from({ length: 100 }, (_, i) => `w${i}`).join(' ');
  await page.getByTestId('sentence-input').fill(text);
  await expect(lines(page)).toHaveAttribute('data-rendered-tokens', '100');
  const step = Number(await lines(page).getAttribute('data-label-step'));
  expect(step).toBeGreaterThan(1);
  expect(Number(await lines(page).getAttribute('data-lines'))).toBeGreaterThan(100);
  await page.getByTestId('sentence-input').fill('   ');
  await expect(page.getByTestId('lines-error')).toContainText('nothing to attend to');
});

test('screenshots of the lines view at 1280×800 and 1920×1080', async ({ page }) => {
  for (const [w, h] of [[1280, 800], [1920, 1080]]) {
    await page.setViewportSize({ width: w, height: h });
    await openLines(page);
    await page.locator('[data-testid=head-toggle][data-head="1"]').check();
    await lines(page).focus();
    for (let i = 0; i < 7; i++) await page.keyboard.press('ArrowDown');
    await expect(lines(page)).toHaveAttribute('data-focus', 'q7');
    await page.waitForTimeout(200);
    await page.screenshot({ path: `test-results/lines-${w}x${h}.png` });
  }
});
