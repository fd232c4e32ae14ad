import { type Locator, type Page } from '@playwright/test';
import { expect, test } from './fixtures';

// The "why √d_k" page: random unit-variance q, k for d_k = 4 … 512, the spread of the
// logits and the softmax's entropy without and with 1/√d_k, the sentence's own values.
//
// DOM contract (implemented by src/pages/scaling/):
//   [data-testid=page-scaling]                        the tab
//   [data-testid=scaling-table] cells std-unscaled-D, std-scaled-D, entropy-unscaled-D,
//     entropy-scaled-D, maxw-unscaled-D, maxw-scaled-D (D = d_k), data-value = the number
//   [data-testid=sentence-row]: sentence-d-k, sentence-std-unscaled, sentence-entropy-…
//   canvas[data-testid=scaling-spread-chart|scaling-entropy-chart]: data-series, data-points
//   [data-testid=example-max-unscaled|example-max-scaled], select[data-testid=example-d-k]

const value = async (el: Locator) => Number(await el.getAttribute('data-value'));
const cell = (page: Page, id: string) => value(page.getByTestId(id));
const pixels = (canvas: Locator) =>
  canvas.evaluate((c) => (c as HTMLCanvasElement).toDataURL('image/png'));

async function open(page: Page) {
  await page.goto('/');
  await page.getByTestId('page-scaling').click();
  await expect(page.getByTestId('scaling-row-512')).toBeVisible();
}

test('the unscaled spread grows as √d_k and the scaled spread stays at 1', async ({ page }) => {
  await open(page);
  const d_ks = [4, 8, 16, 32, 64, 128, 256, 512];
  for (const d of d_ks) {
    const unscaled = await cell(page, `std-unscaled-${d}`);
    const scaled = await cell(page, `std-scaled-${d}`);
    expect(unscaled / Math.sqrt(d), `std of q·k at d_k ${d}`).toBeGreaterThan(0.85);
    expect(unscaled / Math.sqrt(d), `std of q·k at d_k ${d}`).toBeLessThan(1.15);
    expect(scaled, `std of q·k/√d_k at d_k ${d}`).toBeGreaterThan(0.85);
    expect(scaled, `std of q·k/√d_k at d_k ${d}`).toBeLessThan(1.15);
  }
  const ratio = (await cell(page, 'std-unscaled-512')) / (await cell(page, 'std-unscaled-4'));
  expect(ratio).toBeGreaterThan(9); // √128 ≈ 11.3
  expect(ratio).toBeLessThan(14);
  await expect(page.getByTestId('scaling-spread-chart')).toHaveAttribute('data-series', '5');
  await expect(page.getByTestId('scaling-entropy-chart')).toHaveAttribute('data-series', '5');
  // 8 + 8 curve points and the sentence's two dots.
  await expect(page.getByTestId('scaling-spread-chart')).toHaveAttribute('data-points', '18');
});

test('without scaling the softmax becomes nearly one-hot', async ({ page }) => {
  await open(page);
  const hU = await cell(page, 'entropy-unscaled-512');
  const hS = await cell(page, 'entropy-scaled-512');
  expect(hU).toBeLessThan(0.3 * hS);
  expect(await cell(page, 'maxw-unscaled-512')).toBeGreaterThan(0.9);
  expect(await cell(page, 'maxw-scaled-512')).toBeLessThan(0.5);
  // The scaled entropy barely moves with d_k; the unscaled one falls.
  expect(Math.abs(hS - (await cell(page, 'entropy-scaled-4')))).toBeLessThan(0.2);
  expect(await cell(page, 'entropy-unscaled-4')).toBeGreaterThan(5 * hU);

  // The example row: one key takes (almost) everything without scaling.
  expect(await value(page.getByTestId('example-max-unscaled'))).toBeGreaterThan(0.9);
  expect(await value(page.getByTestId('example-max-scaled'))).toBeLessThan(0.7);
  await expect(page.getByTestId('example-rows')).toContainText('nearly one-hot');
  await page.getByTestId('example-d-k').selectOption('4');
  await expect.poll(() => value(page.getByTestId('example-max-unscaled'))).toBeLessThan(0.9);
});

test("the sentence's marker follows d_model, the heads and the selected head", async ({ page }) => {
  await open(page);
  const d_k = page.getByTestId('sentence-d-k');
  await expect(d_k).toHaveAttribute('data-value', '16');
  const chart = page.getByTestId('scaling-spread-chart');
  const before = await pixels(chart);
  const std16 = await cell(page, 'sentence-std-unscaled');
  expect(await cell(page, 'sentence-std-scaled')).toBeCloseTo(std16 / 4, 4);

  await page.getByTestId('heads').selectOption('1');
  await expect(d_k).toHaveAttribute('data-value', '64');
  await expect.poll(() => pixels(chart)).not.toEqual(before);
  const std64 = await cell(page, 'sentence-std-unscaled');
  expect(std64).not.toBe(std16);
  expect(await cell(page, 'sentence-std-scaled')).toBeCloseTo(std64 / 8, 4);

  await page.getByTestId('d-model').fill('128');
  await page.getByTestId('d-model').press('Enter');
  await expect(d_k).toHaveAttribute('data-value', '128');

  await page.getByTestId('heads').selectOption('4');
  await expect(d_k).toHaveAttribute('data-value', '32');
  const head0 = await cell(page, 'sentence-entropy-unscaled');
  await page.getByTestId('pick-head').selectOption('3');
  await expect(d_k).toContainText('head 3');
  expect(await cell(page, 'sentence-entropy-unscaled')).not.toBe(head0);
  // The head chosen here is the lab's: the link carries it.
  await page.getByTestId('page-lab').click();
  await expect(page.getByTestId('variant').first().locator('canvas[data-figure=head]')).toHaveAttribute('aria-label', /Head 3/);
});

test('the experiment follows the sentence length; one token and cross mode do not break it', async ({ page }) => {
  await open(page);
  await expect(page.getByTestId('scaling-setup')).toContainText('n = 11 random keys');
  await page.getByTestId('sentence-input').fill('hello');
  await expect(page.getByTestId('scaling-setup')).toContainText('n = 2 random keys');
  await expect(page.getByTestId('scaling-setup')).toContainText('at least 2');
  await expect(page.getByTestId('sentence-d-k')).toHaveAttribute('data-value', '16');
  await page.getByTestId('sentence-input').fill('');
  await expect(page.getByTestId('sentence-row')).toContainText('appear here');
  // Cross-attention: the keys are the source sentence (我爱机器学习, 6 tokens).
  await page.getByLabel('cross (encoder–decoder)').check();
  await expect(page.getByTestId('scaling-setup')).toContainText("n = 6 random keys (n = your source sentence's length)");
  await page.getByTestId('sentence-input').fill('I love you');
  await expect(page.getByTestId('sentence-d-k')).toHaveAttribute('data-value', '16');
});
