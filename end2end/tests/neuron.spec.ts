import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Locator, type Page } from '@playwright/test';
import { expect, test } from './fixtures';

// The neuron view and the weight | contribution switch (issue 20).
//
// DOM contract (src/neuron/, src/lab/variant_panel.rs, src/pages/model/):
//   [data-testid=measure-weight|measure-contribution]  the switch (aria-pressed)
//   [data-testid=measure-note]                         what a contribution is, the paper
//   [data-testid=neuron-panel]                         the neuron view of the clicked cell
//   [data-testid=neuron-title]                         "Neuron view · head h · query “…” (i) → key “…” (j)"
//   [data-testid=neuron-q|neuron-k|neuron-left|neuron-right|neuron-product]
//                                                      strips; .neuron-cell[data-value] per dimension
//   [data-testid=neuron-sum|neuron-weight]             data-value = the exact number
//   [data-testid=neuron-row]                           the row's keys, scores and weights
//   select[data-testid=steps-neuron-key]              the step-by-step page's key for the view
//   [data-testid=share-row]                            per layer: data-weight, data-contribution
//   canvas[data-testid=share-chart]                    the per-layer chart

const ASSET = 'model/all-minilm-l6-v2.q8.safetensors';
const dist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'dist');
const haveAsset = existsSync(path.join(dist, ASSET));

const pixels = (c: Locator) => c.evaluate((el) => (el as HTMLCanvasElement).toDataURL('image/png'));
const value = async (l: Locator) => Number(await l.getAttribute('data-value'));
const close = (a: number, b: number) => Math.abs(a - b) <= 1e-5 * (1 + Math.abs(b));

async function cellValues(strip: Locator): Promise<number[]> {
  const attrs = await strip.locator('.neuron-cell').evaluateAll((cells) =>
    cells.map((c) => c.getAttribute('data-value') ?? 'NaN'),
  );
  return attrs.map(Number);
}

/** Opens the neuron view of cell (query 7 "it", key 1 "animal") of variant A's head 0. */
async function openCell(page: Page) {
  const heatmap = page.getByTestId('heatmap');
  await expect(heatmap).toHaveAttribute('data-rendered-tokens', '11');
  await heatmap.focus();
  for (let i = 0; i < 7; i++) await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('Enter');
  const panel = page.getByTestId('variant').first().getByTestId('neuron-panel');
  await expect(panel.getByTestId('neuron-title')).toContainText('head 0 · query “it” (7) → key “animal” (1)');
  return panel;
}

/** The raw score of (query 7, key 1) on the step-by-step page. */
async function stepsRawScore(page: Page): Promise<number> {
  await page.getByTestId('page-steps').click();
  await page.getByTestId('pick-head').selectOption('0');
  await page.getByTestId('pick-query').selectOption('7');
  await page.getByTestId('steps-chip').filter({ hasText: 'Raw scores' }).first().click();
  await expect(page.getByTestId('steps-stage')).toHaveAttribute('data-stage', 'Scores');
  await expect(page.getByTestId('steps-row')).toContainText('Row “it” (7)');
  const values = ((await page.getByTestId('steps-row').getAttribute('data-values')) ?? '').split(',');
  return Number(values[1]);
}

for (const score of ['dot', 'additive', 'cosine']) {
  test(`a lab cell's neuron view sums to the step-by-step raw score (${score})`, async ({ page }) => {
    await page.goto('/');
    const a = page.getByTestId('variant').first();
    await a.getByTestId('score').selectOption(score);
    const panel = await openCell(page);
    await expect(panel.getByTestId('neuron-q').locator('.neuron-cell')).toHaveCount(16);
    await expect(panel.getByTestId('neuron-k').locator('.neuron-cell')).toHaveCount(16);
    const product = await cellValues(panel.getByTestId('neuron-product'));
    const sum = await value(panel.getByTestId('neuron-sum'));
    expect(close(product.reduce((s, x) => s + x, 0), sum)).toBe(true);
    // The weight is the lab's own reading of the cell.
    const info = a.getByTestId('cell-info').first();
    const reading = Number((await info.textContent())!.match(/weight ([0-9.e-]+)/)![1]);
    expect(close(await value(panel.getByTestId('neuron-weight')), reading)).toBe(true);
    await expect(panel.getByTestId('neuron-row').locator('tbody tr')).toHaveCount(11);
    // Sorted by |product|, largest first.
    await panel.getByTestId('neuron-sort').check();
    const sorted = (await cellValues(panel.getByTestId('neuron-product'))).map(Math.abs);
    expect(sorted.every((x, i) => i === 0 || x <= sorted[i - 1])).toBe(true);
    if (score === 'dot') await panel.screenshot({ path: 'test-results/neuron-lab.png' });

    const raw = await stepsRawScore(page);
    expect(close(sum, raw), `Σ ${sum} vs the step-by-step raw score ${raw}`).toBe(true);
  });
}

for (const kind of ['sigmoid', 'differential']) {
  test(`a ${kind} cell's neuron view reads the kind's own weight, not softmax's`, async ({ page }) => {
    await page.goto('/');
    const a = page.getByTestId('variant').first();
    await a.getByTestId('attention').selectOption(kind);
    await expect(a.getByTestId('attention')).toHaveValue(kind);
    const panel = await openCell(page);
    const info = a.getByTestId('cell-info').first();
    const reading = Number((await info.textContent())!.match(/weight (−?-?[0-9.e-]+)/)![1].replace('−', '-'));
    expect(close(await value(panel.getByTestId('neuron-weight')), reading), `${reading}`).toBe(true);
    await expect(panel.getByTestId('neuron-steps')).toContainText("turns the row's logits into weights in its own way");
    await expect(panel.getByTestId('neuron-steps')).not.toContainText('Softmax over the row');
  });
}

test('the step-by-step page explains its query\'s cell on a picked key', async ({ page }) => {
  await page.goto('/');
  await page.getByTestId('variant').first().getByTestId('score').selectOption('general');
  await expect(page.getByTestId('heatmap')).toHaveAttribute('data-rendered-tokens', '11');
  const raw = await stepsRawScore(page);
  await page.getByTestId('steps-neuron-key').selectOption('1');
  const panel = page.getByTestId('neuron-panel');
  await expect(panel.getByTestId('neuron-title')).toContainText('query “it” (7) → key “animal” (1)');
  await expect(panel.getByTestId('neuron-left')).toBeVisible(); // q_i W
  expect(close(await value(panel.getByTestId('neuron-sum')), raw)).toBe(true);
  await panel.getByTestId('neuron-close').click();
  await expect(panel).toHaveCount(0);
});

test('a click on a lab cell opens its neuron view, and "contribution" repaints the heatmaps', async ({ page }) => {
  await page.goto('/');
  const a = page.getByTestId('variant').first();
  const heatmap = page.getByTestId('heatmap');
  await expect(heatmap).toHaveAttribute('data-rendered-tokens', '11');
  // A click in the middle of the heatmap.
  const box = (await heatmap.boundingBox())!;
  await heatmap.click({ position: { x: box.width * 0.5, y: box.height * 0.45 } });
  await expect(a.getByTestId('neuron-panel').getByTestId('neuron-title')).toContainText('Neuron view · head 0 · query');

  const canvases = [heatmap, a.getByTestId('head-grid'), a.getByTestId('average-heatmap')];
  const before = await Promise.all(canvases.map(pixels));
  await a.getByTestId('measure-contribution').click();
  await expect(a.getByTestId('measure-contribution')).toHaveAttribute('aria-pressed', 'true');
  await expect(a.getByTestId('measure-note')).toContainText('Attention is Not Only a Weight');
  for (const [k, c] of canvases.entries()) {
    await expect.poll(() => pixels(c), { message: `canvas ${k} repaints` }).not.toEqual(before[k]);
  }
  await heatmap.focus();
  await page.keyboard.press('ArrowDown');
  await expect(a.getByTestId('cell-info').first()).toContainText('contribution ‖αf(x)‖');
  await a.getByTestId('measure-weight').click();
  await expect.poll(() => pixels(heatmap)).toEqual(before[0]);
});

test.describe('the real model', () => {
  test.skip(!haveAsset, `skipped: dist/${ASSET} is missing (run cargo xtask model)`);

  test('an atlas cell opens its neuron view; contributions and the per-layer shares', async ({ page }) => {
    await page.goto('/');
    await page.getByTestId('model-minilm-l6').check();
    const atlas = page.getByTestId('atlas');
    await expect(atlas).toHaveAttribute('data-rendered-tokens', '15', { timeout: 30_000 });

    // A cell of the first tile (layer 0, head 0): inside its top-left twelfth.
    const box = (await atlas.boundingBox())!;
    const panel = page.getByTestId('neuron-panel');
    for (const f of [0.6, 0.5, 0.7, 0.4]) {
      await atlas.click({ position: { x: (box.width / 12) * 0.5, y: (box.height / 6) * f } });
      if (await panel.isVisible()) break;
    }
    await expect(panel.getByTestId('neuron-title')).toContainText('Neuron view · layer 0 · head 0 · query');
    await expect(panel.getByTestId('neuron-q').locator('.neuron-cell')).toHaveCount(32);
    const product = await cellValues(panel.getByTestId('neuron-product'));
    const sum = await value(panel.getByTestId('neuron-sum'));
    expect(close(product.reduce((s, x) => s + x, 0), sum)).toBe(true);
    const weight = await value(panel.getByTestId('neuron-weight'));
    expect(weight).toBeGreaterThan(0);
    expect(weight).toBeLessThan(1);

    // The switch repaints the atlas and the head.
    const head = page.getByTestId('model-heatmap');
    const before = [await pixels(atlas), await pixels(head)];
    await page.getByTestId('measure-contribution').click();
    await expect.poll(() => pixels(atlas)).not.toEqual(before[0]);
    await expect.poll(() => pixels(head)).not.toEqual(before[1]);

    // The example sentence: more weight than contribution on [CLS]/[SEP] in every layer.
    await expect(page.getByTestId('share-row')).toHaveCount(6);
    for (const row of await page.getByTestId('share-row').all()) {
      const w = Number(await row.getAttribute('data-weight'));
      const c = Number(await row.getAttribute('data-contribution'));
      expect(w).toBeGreaterThan(c);
    }
    await expect(page.getByTestId('share-chart')).toBeVisible();
    await page.getByTestId('shares').screenshot({ path: 'test-results/neuron-shares.png' });
    await panel.screenshot({ path: 'test-results/neuron-model.png' });
  });
});
