import { type Page } from '@playwright/test';
import { DEFAULT_SENTENCE, expect, test } from './fixtures';

// The linear-attention page: softmax against a kernel variant on the same Q, K, the
// singular values' ranks, causal linear attention as an RNN, Linformer's map and the
// statements on causality.
//
// DOM contract (src/pages/linear/; every canvas's data-rows and data-cols are set by its
// paint, from the cells actually drawn):
//   [data-testid=page-linear]                    the tab
//   [data-testid=lin-max-abs|lin-mean-abs]       max/mean |Â − A|, full value in data-value
//   [data-testid=rank-linear|rank-softmax|phi-width|rank-full]   ranks, data-value
//   canvas[data-testid=lin-softmax|lin-implied|lin-difference]   data-rows, data-cols
//   [data-testid=rnn-stepper]                    arrow keys step t; [data-testid=rnn-diff]
//                                                has data-t and data-value = max |o_t − (ÂV)_t|
//   canvas[data-testid=linformer-e|linformer-attention]  data-rows × data-cols
//   [data-testid=causality-<kind>]               one sentence per kind, data-causal

const value = async (page: Page, id: string) =>
  Number(await page.getByTestId(id).getAttribute('data-value'));

// How many distinct colours the canvas's pixels hold: a painted matrix has many, a blank
// or cleared canvas one or two.
const colours = async (page: Page, id: string) =>
  page.getByTestId(id).evaluate((c: HTMLCanvasElement) => {
    const { data } = c.getContext('2d')!.getImageData(0, 0, c.width, c.height);
    const seen = new Set<number>();
    for (let i = 0; i < data.length; i += 4) seen.add((data[i] << 16) | (data[i + 1] << 8) | data[i + 2]);
    return seen.size;
  });

async function open(page: Page) {
  await page.goto('/');
  await expect(page.getByTestId('token-strip').getByTestId('token')).toHaveCount(11);
  await page.getByTestId('page-linear').click();
  await expect(page.getByTestId('linear-page')).toBeVisible();
  await expect(page.getByTestId('lin-max-abs')).toBeVisible();
}

test('elu1 against softmax on the default sentence: a real, finite difference', async ({ page }) => {
  await open(page);
  await expect(page.getByTestId('sentence-input')).toHaveValue(DEFAULT_SENTENCE);
  await expect(page.getByTestId('linear-kind')).toHaveValue('elu1');
  const max = await value(page, 'lin-max-abs');
  const mean = await value(page, 'lin-mean-abs');
  expect(Number.isFinite(max) && max > 0, `max |Δ| = ${max}`).toBe(true);
  expect(Number.isFinite(mean) && mean > 0 && mean <= max, `mean |Δ| = ${mean}`).toBe(true);
  for (const id of ['lin-softmax', 'lin-implied', 'lin-difference']) {
    await expect(page.getByTestId(id)).toHaveAttribute('data-rows', '11');
    await expect(page.getByTestId(id)).toHaveAttribute('data-cols', '11');
    await expect(page.getByTestId(id)).toHaveAttribute('data-rendered-tokens', '11');
    expect(await colours(page, id), `${id} is painted`).toBeGreaterThan(20);
  }
  // Another kernel gives other numbers.
  await page.getByTestId('linear-kind').selectOption('taylor');
  await expect(page.getByTestId('phi-width')).toHaveAttribute('data-value', '17');
  expect(await value(page, 'lin-max-abs')).not.toEqual(max);
  // The link keeps the page.
  expect(page.url()).toContain('#v1.');
});

test('ranks: linear ≤ φ width, softmax full rank; a long sentence shows the bound', async ({ page }) => {
  await open(page);
  const phi = await value(page, 'phi-width');
  expect(phi).toBe(16);
  expect(await value(page, 'rank-linear')).toBeLessThanOrEqual(phi);
  expect(await value(page, 'rank-softmax')).toBe(11);
  await expect(page.getByTestId('rank-statement')).toContainText('at most the φ width 16');
  // The chart marks every singular value of both spectra: 11 + 11 points.
  await expect(page.getByTestId('spectrum-chart')).toHaveAttribute('data-points', '22');
  await expect(page.getByTestId('spectrum-chart-legend')).toContainText('softmax: rank 11');
  await expect(page.getByTestId('spectrum-chart-legend')).toContainText('elu1: rank 11');

  const words = 'alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigma tau upsilon phi chi psi omega zero';
  await page.getByTestId('sentence-input').fill(words);
  await expect(page.getByTestId('rank-full')).toHaveAttribute('data-value', '25');
  expect(await value(page, 'rank-linear')).toBe(16);
  expect(await value(page, 'rank-softmax')).toBe(25);
  // 25 softmax points, and at least the 16 linear ones above the rounding floor.
  await expect
    .poll(async () => Number(await page.getByTestId('spectrum-chart').getAttribute('data-points')))
    .toBeGreaterThanOrEqual(41);
});

test('the RNN stepper equals the masked parallel form at every t (keyboard)', async ({ page }) => {
  await open(page);
  const stepper = page.getByTestId('rnn-stepper');
  await stepper.getByTestId('rnn-step').focus();
  for (let t = 0; t < 11; t++) {
    const diff = stepper.getByTestId('rnn-diff');
    await expect(diff).toHaveAttribute('data-t', String(t));
    await expect(stepper.getByTestId('rnn-t-value')).toHaveText(String(t));
    const d = Number(await diff.getAttribute('data-value'));
    expect(Number.isFinite(d) && d < 1e-5, `t = ${t}: max |o_t − (ÂV)_t| = ${d}`).toBe(true);
    await expect(stepper.getByTestId('rnn-step')).toContainText(`t = ${t} of 11`);
    await expect(stepper.getByTestId('rnn-s')).toHaveAttribute('data-rows', '16');
    await expect(stepper.getByTestId('rnn-z')).toHaveAttribute('data-cols', '16');
    await page.keyboard.press('ArrowRight');
  }
  // Past the end it stays at the last token.
  await expect(stepper.getByTestId('rnn-diff')).toHaveAttribute('data-t', '10');
  await expect(stepper.getByTestId('rnn-step')).toContainText('“tired”');
  expect(await value(page, 'rnn-diff-all')).toBeLessThan(1e-5);
  await page.keyboard.press('Home');
  await expect(stepper.getByTestId('rnn-diff')).toHaveAttribute('data-t', '0');
  await stepper.getByTestId('rnn-next').click();
  await expect(stepper.getByTestId('rnn-diff')).toHaveAttribute('data-t', '1');
});

test('Linformer: an n×k map, and the statements on causality', async ({ page }) => {
  await open(page);
  const panel = page.getByTestId('linformer-panel');
  await expect(panel.getByTestId('linformer-e')).toHaveAttribute('data-rows', '11');
  await expect(panel.getByTestId('linformer-e')).toHaveAttribute('data-cols', '4');
  await expect(panel.getByTestId('linformer-attention')).toHaveAttribute('data-cols', '4');
  await panel.getByTestId('linformer-k').fill('6');
  await panel.getByTestId('linformer-k').press('Enter');
  await expect(panel.getByTestId('linformer-e')).toHaveAttribute('data-cols', '6');
  await expect(panel.getByTestId('linformer-attention')).toHaveAttribute('data-rows', '11');
  await expect(panel.getByTestId('linformer-attention')).toHaveAttribute('data-rendered-tokens', '11');

  await expect(page.getByTestId('causality-linformer')).toContainText('cannot be made causal');
  await expect(page.getByTestId('causality-linformer')).toContainText('k projected keys');
  // Efficient attention: not causal as defined, but a causal form with running sums exists.
  await expect(page.getByTestId('causality-efficient')).toContainText('not causal as defined');
  await expect(page.getByTestId('causality-efficient')).toContainText('A causal form exists');
  await expect(page.getByTestId('causality-efficient')).toHaveAttribute('data-causal', 'false');
  await expect(page.getByTestId('causality-elu1')).toHaveAttribute('data-causal', 'true');
  await expect(page.getByTestId('causality-softmax')).toContainText('the selected variant');
});

test('cross-attention and a one-token sentence give messages, not errors', async ({ page }) => {
  await open(page);
  await page.getByTestId('mode-cross').check();
  await expect(page.getByTestId('rnn-error')).toContainText('cross-attention');
  await expect(page.getByTestId('lin-implied')).toHaveAttribute('data-cols', '6');
  expect(await value(page, 'lin-max-abs')).toBeGreaterThan(0);
  await expect(page.getByTestId('linformer-e')).toHaveAttribute('data-rows', '6');

  await page.getByTestId('mode-self').check();
  await page.getByTestId('sentence-input').fill('cat');
  await expect(page.getByTestId('one-token-note')).toBeVisible();
  await expect(page.getByTestId('rank-full')).toHaveAttribute('data-value', '1');
  await expect(page.getByTestId('rnn-step')).toContainText('t = 0 of 1');
  expect(await value(page, 'rnn-diff')).toBeLessThan(1e-5);

  await page.getByTestId('sentence-input').fill('');
  await expect(page.getByTestId('linear-empty')).toBeVisible();
});

test('the implied matrix sits beside the softmax matrix it is compared with, and the difference under them', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await open(page);
  const box = async (id: string) => (await page.getByTestId(id).boundingBox())!;
  await expect(page.getByTestId('lin-implied')).toHaveAttribute('data-rendered-tokens', /^[1-9]/);
  const [softmax, implied, difference] = [await box('lin-softmax'), await box('lin-implied'), await box('lin-difference')];
  expect(Math.abs(implied.y - softmax.y), 'same row').toBeLessThan(2);
  expect(implied.x).toBeGreaterThan(softmax.x + softmax.width);
  // Next to it: the gap between the two is a gutter, not a column.
  expect(implied.x - (softmax.x + softmax.width)).toBeLessThan(0.25 * softmax.width);
  expect(difference.y).toBeGreaterThan(softmax.y + softmax.height);
  expect(Math.abs(difference.x - softmax.x)).toBeLessThan(2);
});
