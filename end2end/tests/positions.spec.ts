import { type Locator, type Page } from '@playwright/test';
import { expect, test } from './fixtures';

// The position-encodings page: the PE table, chosen dimensions as curves, PE(a)·PE(b),
// the rotation residual, and the bag-of-words shuffle.
//
// DOM contract (implemented by src/pages/positions/):
//   [data-testid=page-positions]            the tab
//   canvas[data-testid=pe-heatmap]          the PE table; data-rows / data-cols after paint
//   canvas[data-testid=pe-curves]           the chosen dimensions as curves; data-series
//   canvas[data-testid=pe-dot-heatmap]      PE(a)·PE(b)
//   [data-testid=pe-diagonal-spread]        largest spread along a diagonal (data-value)
//   [data-testid=pe-rotation]               max |PE(p+k) − R_k·PE(p)| (data-value)
//   [data-testid=pe-rotation-message]       why there is no R_k (learned, none)
//   select[data-testid=pos-kind|pos-layout|pos-combine], input[data-testid=pos-base|
//   pos-width|pos-count|pos-dims|pos-k], button[data-testid=pos-base-10000|pos-base-1000]
//   button[data-testid=bow-shuffle|bow-restore], [data-testid=bow-order]
//   [data-testid=bow-diff-off|bow-diff-on] (data-value), [data-testid=bow-caveat]
//   canvas[data-testid=bow-original|bow-restored]

const pixels = (canvas: Locator) =>
  canvas.evaluate((c) => (c as HTMLCanvasElement).toDataURL('image/png'));
const value = async (el: Locator) => Number(await el.getAttribute('data-value'));

async function open(page: Page, path = '/') {
  await page.goto(path);
  await page.getByTestId('page-positions').click();
  await expect(page.getByTestId('pe-heatmap')).toHaveAttribute('data-rows', /^[1-9]/);
}

/** Waits until `canvas` no longer shows `before`. */
async function changes(canvas: Locator, before: string, what: string) {
  await expect.poll(() => pixels(canvas), { message: `${what} repaints` }).not.toEqual(before);
}

test('the PE heatmap paints positions × dimensions and follows the width and the count', async ({ page }) => {
  await open(page);
  const pe = page.getByTestId('pe-heatmap');
  // At least 64 positions, whatever the sentence's length (11 tokens here), so the slow
  // dimensions' waves show; a longer sentence draws all of its own.
  await expect(pe).toHaveAttribute('data-rows', '64');
  await expect(pe).toHaveAttribute('data-cols', '64');
  await expect(page.getByTestId('pos-count')).toHaveAttribute('placeholder', '64');
  // The canvas really has ink: more than one colour.
  const colours = await pe.evaluate((c) => {
    const canvas = c as HTMLCanvasElement;
    const d = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height).data;
    const seen = new Set<number>();
    for (let i = 0; i < d.length; i += 4 * 97) seen.add((d[i] << 16) | (d[i + 1] << 8) | d[i + 2]);
    return seen.size;
  });
  expect(colours).toBeGreaterThan(10);

  await page.getByTestId('pos-count').fill('100');
  await page.getByTestId('pos-count').press('Enter');
  await expect(pe).toHaveAttribute('data-rows', '100');

  // Concatenated positions of width 16: the table has 16 columns, and the lab's X grows.
  await page.getByTestId('pos-combine').selectOption('concat');
  await page.getByTestId('pos-width').fill('16');
  await page.getByTestId('pos-width').press('Enter');
  await expect(pe).toHaveAttribute('data-cols', '16');
  await expect(page.getByTestId('pe-input-shape')).toContainText('× 80 (positions 16 wide)');
  // The sidebar (the shared model settings) follows.
  await expect(page.getByTestId('d-pos')).toHaveValue('16');

  // An odd width is refused with a reason, never applied.
  await page.getByTestId('pos-width').fill('15');
  await page.getByTestId('pos-width').press('Enter');
  await expect(page.locator('#pos-width-why')).toContainText('even');
  await expect(pe).toHaveAttribute('data-cols', '16');
});

test('base 10000 ↔ 1000 changes the figures and is written to the link', async ({ page, context }) => {
  await open(page);
  const curves = page.getByTestId('pe-curves');
  const pe = page.getByTestId('pe-heatmap');
  await expect(curves).toHaveAttribute('data-series', '4');
  const [curvesBefore, peBefore] = [await pixels(curves), await pixels(pe)];
  const hashBefore = await page.evaluate(() => location.hash);

  await page.getByTestId('pos-base-1000').click();
  await expect(page.getByTestId('pos-base')).toHaveValue('1000');
  await expect(page.getByTestId('base')).toHaveValue('1000'); // the shared setting
  await changes(curves, curvesBefore, 'the curves');
  await changes(pe, peBefore, 'the PE heatmap');
  await expect.poll(() => page.evaluate(() => location.hash)).not.toEqual(hashBefore);

  // The link carries the base: a fresh page opened with it shows base 1000 and the same curves.
  const url = page.url();
  const curves1000 = await pixels(curves);
  const other = await context.newPage();
  await open(other, url);
  await expect(other.getByTestId('pos-base')).toHaveValue('1000');
  await expect(other.getByTestId('pos-base-1000')).toHaveAttribute('aria-pressed', 'true');
  await expect.poll(() => pixels(other.getByTestId('pe-curves'))).toEqual(curves1000);

  // And back.
  await page.getByTestId('pos-base-10000').click();
  await expect(page.getByTestId('pos-base')).toHaveValue('10000');
  await expect.poll(() => pixels(curves)).toEqual(curvesBefore);
});

test('split vs interleaved changes the PE heatmap', async ({ page }) => {
  await open(page);
  const pe = page.getByTestId('pe-heatmap');
  const before = await pixels(pe);
  await page.getByTestId('pos-layout').selectOption('split');
  await changes(pe, before, 'the PE heatmap');
  await expect(page.getByTestId('pe-table-figure')).toContainText('split');
  await page.getByTestId('pos-layout').selectOption('interleaved');
  await expect.poll(() => pixels(pe)).toEqual(before);
});

test('PE(a)·PE(b) depends only on a − b for sinusoids, not for learned positions', async ({ page }) => {
  await open(page);
  await page.getByTestId('pos-count').fill('64');
  await page.getByTestId('pos-count').press('Enter');
  await expect(page.getByTestId('pe-dot-heatmap')).toHaveAttribute('data-rows', '64');
  const spread = page.getByTestId('pe-diagonal-spread');
  expect(await value(spread)).toBeLessThan(1e-4);
  await page.getByTestId('pos-base-1000').click();
  await page.getByTestId('pos-layout').selectOption('split');
  await expect(page.getByTestId('pos-base')).toHaveValue('1000');
  expect(await value(spread)).toBeLessThan(1e-4);

  await page.getByTestId('pos-kind').selectOption('learned');
  await expect.poll(() => value(spread)).toBeGreaterThan(0.1);
});

test('the rotation residual is at f32 rounding for sinusoids; learned and none say why there is none', async ({ page }) => {
  await open(page);
  const residual = page.getByTestId('pe-rotation');
  expect(await value(residual)).toBeLessThan(1e-4);
  for (const k of ['0', '3', '7']) {
    await page.getByTestId('pos-k').fill(k);
    await page.getByTestId('pos-k').press('Enter');
    await expect(page.getByTestId('pe-rotation-panel')).toContainText(`PE(p+${k})`);
    expect(await value(residual)).toBeLessThan(1e-4);
  }
  // k beyond the positions: a sentence, not a number.
  await page.getByTestId('pos-k').fill('64');
  await page.getByTestId('pos-k').press('Enter');
  await expect(page.getByTestId('pe-rotation-message')).toContainText('no pair p, p + 64');

  await page.getByTestId('pos-kind').selectOption('learned');
  await expect(page.getByTestId('pe-rotation-message')).toContainText('Learned position vectors are free parameters');
  await expect(residual).toHaveCount(0);

  await page.getByTestId('pos-kind').selectOption('none');
  await expect(page.getByTestId('pe-rotation-message')).toContainText('Positions are off');
  await expect(page.getByTestId('pe-none-message')).toBeVisible();
  await expect(page.getByTestId('pe-heatmap')).toHaveAttribute('data-rows', '0');
});

test('the rotation panel says the property is the encodings\', not the scores\', and the base presets say which is which', async ({ page }) => {
  await open(page);
  const panel = page.getByTestId('pe-rotation-panel');
  await expect(panel).toContainText('so PE(p)·PE(p+k) depends on k only');
  await expect(panel).toContainText('The attention scores do not keep this');
  await expect(panel).toContainText('not on i − j only');
  await expect(panel).toContainText('RoPE, which turns q and k themselves by their positions after W_Q and W_K, keeps it');
  await expect(panel).not.toContainText('attention can read relative positions');
  // 10000 is the base models use; 1000 is offered for comparison, named as a misprint.
  await expect(page.getByTestId('pos-base-10000')).toHaveAttribute('title', /the one models use/);
  await expect(page.getByTestId('pos-base-1000')).toHaveAttribute('title', /misprints the base as 1000; models use 10000/);
});

test('bag of words: shuffling changes nothing without positions and changes the weights with them', async ({ page }) => {
  await open(page);
  const order = page.getByTestId('bow-order');
  await expect(order).toHaveText('order: as typed');
  await expect(page.getByTestId('bow-restore')).toBeDisabled();

  await page.getByTestId('bow-shuffle').click();
  await expect(order).toHaveText(/^order: (\d+ ){10}\d+$/);
  const first = await order.textContent();
  expect(first).not.toBe('order: 0 1 2 3 4 5 6 7 8 9 10');
  const off = page.getByTestId('bow-diff-off');
  const on = page.getByTestId('bow-diff-on');
  expect(await value(off)).toBeLessThan(1e-5);
  expect(await value(on)).toBeGreaterThan(1e-3);
  await expect(page.getByTestId('bow-original')).toHaveAttribute('data-rendered-tokens', '11');
  await expect(page.getByTestId('bow-restored')).toHaveAttribute('data-rendered-tokens', '11');

  // Another shuffle gives another order; the check holds for every head and variant.
  await page.getByTestId('bow-shuffle').click();
  await expect(order).not.toHaveText(first!);
  await page.getByTestId('pick-head').selectOption('2');
  await page.getByTestId('pick-variant').selectOption('1');
  await expect.poll(() => value(off)).toBeLessThan(1e-5);
  expect(await value(on)).toBeGreaterThan(1e-3);

  // Positions off in the model: the heatmaps show that setting, and the "on" side uses
  // sinusoids so the contrast stays.
  const restored = page.getByTestId('bow-restored');
  const before = await pixels(restored);
  await page.getByTestId('pos-kind').selectOption('none');
  await expect(page.getByTestId('bow-on')).toContainText('uses sinusoids');
  await changes(restored, before, 'the restored heatmap');
  expect(await value(off)).toBeLessThan(1e-5);
  expect(await value(on)).toBeGreaterThan(1e-3);

  await page.getByTestId('bow-restore').click();
  await expect(order).toHaveText('order: as typed');
  await expect(off).toHaveCount(0);
});

test('a position-dependent mask is named instead of a misleading number', async ({ page }) => {
  await page.goto('/');
  await page.getByTestId('variant').nth(0).getByTestId('mask-causal').check();
  await page.getByTestId('page-positions').click();
  await page.getByTestId('bow-shuffle').click();
  await expect(page.getByTestId('bow-caveat')).toContainText('causal mask');
  await expect(page.getByTestId('bow-diff-off')).toHaveCount(0);
  expect(await value(page.getByTestId('bow-diff-on'))).toBeGreaterThan(1e-3);
});

test('cross-attention and a one-word sentence get a sentence, not a broken check', async ({ page }) => {
  await open(page);
  await page.getByTestId('sentence-input').fill('hello');
  await expect(page.getByTestId('bow-short')).toBeVisible();
  await expect(page.getByTestId('bow-shuffle')).toBeDisabled();
  await page.getByTestId('sentence-input').fill('');
  await expect(page.getByTestId('pe-heatmap')).toHaveAttribute('data-rows', '64');
  await page.getByLabel('cross (encoder–decoder)').check();
  await expect(page.getByTestId('bow-cross')).toBeVisible();
});

// RoPE, long context and ALiBi (issue 33):
//   [data-testid=rope-section], select[data-testid=rope-pairs|rope-scaling|rope-word],
//   input[data-testid=rope-base|rope-factor|rope-trained|rope-pair],
//   [data-testid=rope-spread-sinusoid|rope-spread-rope] (data-value),
//   canvas[data-testid=rope-pair-chart|rope-decay|rope-wavelengths|rope-long-decay] (data-series),
//   canvas[data-testid=rope-proof-sinusoid|rope-proof-rope|rope-alibi-{h}] (data-rows)
test('RoPE: a repeated word scores by distance only with RoPE, not with the added sinusoid; the scalings move the wavelengths', async ({ page }) => {
  await open(page);
  const section = page.getByTestId('rope-section');
  await section.scrollIntoViewIfNeeded();
  await expect(section).toContainText('Su Jianlin');
  await expect(page.getByTestId('rope-proof-rope')).toHaveAttribute('data-rows', '12');
  await expect(page.getByTestId('rope-proof-sinusoid')).toHaveAttribute('data-rows', '12');

  // The proof: the largest spread along a diagonal of q_i·k_j, for "The" at every position.
  const sinusoid = page.getByTestId('rope-spread-sinusoid');
  const rope = page.getByTestId('rope-spread-rope');
  await expect.poll(() => value(sinusoid)).toBeGreaterThan(0.05);
  expect(await value(rope)).toBeLessThanOrEqual(1e-5);
  // Another word, interleaved pairs, YaRN: still only the distance counts with RoPE.
  await page.getByTestId('rope-word').selectOption('3');
  await page.getByTestId('rope-pairs').selectOption('interleaved');
  await expect(page.getByTestId('rope-proof-rope')).toHaveAttribute('data-rows', '12');
  expect(await value(rope)).toBeLessThanOrEqual(1e-5);
  expect(await value(sinusoid)).toBeGreaterThan(0.05);

  // The pair turns: its readout and curve follow the slider.
  const readout = page.getByTestId('rope-pair-readout');
  await expect(readout).toContainText('θ_i = 1:');
  await page.getByTestId('rope-pair').fill('2');
  await expect(readout).toContainText('θ_i = 0.1:');
  await expect(page.getByTestId('rope-pair-chart')).toHaveAttribute('data-series', '3');
  await expect(page.getByTestId('rope-decay')).toHaveAttribute('data-series', '1');

  // The factor has nothing to scale without a scaling, and says so.
  const factor = page.getByTestId('rope-factor');
  await expect(factor).toBeDisabled();
  await expect(factor).toHaveAttribute('title', /no scaling is chosen/);

  // Scaling changes the wavelength chart: a second curve and the s·L_train line.
  const waves = page.getByTestId('rope-wavelengths');
  await expect(waves).toHaveAttribute('data-series', '2');
  const before = await pixels(waves);
  await page.getByTestId('rope-scaling').selectOption('linear');
  await expect(waves).toHaveAttribute('data-series', '4');
  await expect(waves).toHaveAttribute('data-legend', 'no scaling | linear | L_train = 4096 | s·L_train = 16384');
  await changes(waves, before, 'the wavelength chart');
  await expect(factor).toBeEnabled();
  const linear = await pixels(waves);
  await page.getByTestId('rope-scaling').selectOption('ntk');
  await expect(waves).toHaveAttribute('data-legend', /NTK/);
  await changes(waves, linear, 'the wavelength chart (NTK)');
  const ntk = await pixels(waves);
  await page.getByTestId('rope-scaling').selectOption('yarn');
  await expect(waves).toHaveAttribute('data-legend', /YaRN/);
  await changes(waves, ntk, 'the wavelength chart (YaRN)');
  await expect(page.getByTestId('rope-long-decay')).toHaveAttribute('data-legend', 'no scaling | YaRN | L_train = 4096 | s·L_train = 16384');
  const yarn = await pixels(waves);
  await factor.fill('8');
  await factor.press('Enter');
  await expect(waves).toHaveAttribute('data-legend', /s·L_train = 32768/);
  await changes(waves, yarn, 'the wavelength chart (s = 8)');
  // RoPE's scores still depend on the distance only under YaRN.
  expect(await value(rope)).toBeLessThanOrEqual(1e-5);

  // ALiBi: one bias heatmap per head, the paper's slopes for 4 heads.
  await expect(page.getByTestId('rope-alibi-slopes')).toHaveText('0.25, 0.0625, 0.0156, 0.00391');
  await expect(page.getByTestId('rope-alibi-3')).toHaveAttribute('data-rows', '12');
});

test('the RoPE section opens on the shown variant\'s RoPE, as the long-context lesson sets it', async ({ page }) => {
  // The lesson's YaRN step: its variant A has RoPE with YaRN, s = 4, L = 4096.
  await page.goto('/#lesson=long-context/yarn');
  await expect(page.getByTestId('lesson-bar')).toHaveAttribute('data-step', 'yarn');
  const section = page.getByTestId('rope-section');
  await expect(section.getByTestId('rope-scaling')).toHaveValue('yarn');
  await expect(section.getByTestId('rope-factor')).toHaveValue('4');
  await expect(section.getByTestId('rope-trained')).toHaveValue('4096');
  const waves = page.getByTestId('rope-wavelengths');
  await expect(waves).toHaveAttribute('data-legend', 'no scaling | YaRN | L_train = 4096 | s·L_train = 16384');
  // The step before sets NTK, and the page follows.
  await page.getByTestId('lesson-prev').click();
  await expect(page.getByTestId('lesson-bar')).toHaveAttribute('data-step', 'ntk');
  await expect(section.getByTestId('rope-scaling')).toHaveValue('ntk');
  await expect(waves).toHaveAttribute('data-legend', 'no scaling | NTK | L_train = 4096 | s·L_train = 16384');
  // The page's own knob still changes the page's figures only.
  await section.getByTestId('rope-scaling').selectOption('linear');
  await expect(waves).toHaveAttribute('data-legend', 'no scaling | linear | L_train = 4096 | s·L_train = 16384');
});
