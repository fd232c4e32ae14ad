import { type Locator, type Page } from '@playwright/test';
import { expect, test } from './fixtures';

// The "Step by step" view: one variant's pipeline, stage by stage.
//
// DOM contract (implemented by src/pages/steps/):
//   [data-testid=page-steps]          the tab
//   [data-testid=steps-view]          the view (focusable; ArrowLeft/ArrowRight step)
//   select[data-testid=pick-variant|pick-head|pick-query]
//   button[data-testid=steps-prev|steps-next], [data-testid=steps-indicator] "k / n"
//   [data-testid=steps-chip]          one button per stage
//   [data-testid=steps-stage]         data-stage = the stage kind (Input, Queries, …)
//   [data-testid=steps-formula]       the stage's formula: a <math> element
//   [data-testid=steps-row]           the selected query's row: text rounded to 3 decimals,
//                                     data-values = the exact values ("blocked" for a
//                                     masked cell), data-row-sum
//   canvas[data-testid=steps-canvas]  the stage's heatmap; data-rendered-tokens = its rows

const view = (page: Page) => page.getByTestId('steps-view');
const indicator = (page: Page) => page.getByTestId('steps-indicator');
const stage = (page: Page) => page.getByTestId('steps-stage');
const canvas = (page: Page) => page.getByTestId('steps-canvas');
const pixels = (c: Locator) => c.evaluate((el) => (el as HTMLCanvasElement).toDataURL('image/png'));

async function openSteps(page: Page) {
  await page.goto('/');
  await expect(page.getByTestId('heatmap')).toHaveAttribute('data-rendered-tokens', '11');
  await page.getByTestId('page-steps').click();
  await expect(view(page)).toBeVisible();
  await expect(canvas(page)).toHaveAttribute('data-rendered-tokens', '11');
}

/** Clicks the stage chip whose name contains `name`. */
async function goToStage(page: Page, name: string) {
  await page.getByTestId('steps-chip').filter({ hasText: name }).first().click();
}

async function rowValues(page: Page): Promise<string[]> {
  const attr = await page.getByTestId('steps-row').getAttribute('data-values');
  return (attr ?? '').split(',');
}

test('the view opens from its tab and steps through every stage with buttons and keys', async ({ page }) => {
  await openSteps(page);
  await expect(indicator(page)).toHaveText('1 / 10');
  await expect(stage(page)).toHaveAttribute('data-stage', 'Input');
  await expect(page.getByTestId('steps-prev')).toBeDisabled();
  const kinds = ['Input', 'Queries', 'Keys', 'Values', 'Scores', 'Scaled', 'Masked', 'Softmax', 'HeadOutput', 'Output'];
  let before = await pixels(canvas(page));
  for (let k = 1; k < kinds.length; k++) {
    await page.getByTestId('steps-next').click();
    await expect(indicator(page)).toHaveText(`${k + 1} / 10`);
    await expect(stage(page)).toHaveAttribute('data-stage', kinds[k]);
    await expect.poll(() => pixels(canvas(page)), { message: `${kinds[k]} repaints` }).not.toEqual(before);
    before = await pixels(canvas(page));
  }
  await expect(page.getByTestId('steps-next')).toBeDisabled();
  // Keys: ArrowLeft/ArrowRight while the view has focus.
  await view(page).focus();
  for (let k = kinds.length - 2; k >= 0; k--) {
    await page.keyboard.press('ArrowLeft');
    await expect(stage(page)).toHaveAttribute('data-stage', kinds[k]);
  }
  await expect(indicator(page)).toHaveText('1 / 10');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await expect(indicator(page)).toHaveText('3 / 10');
  // Q is n × d_k = 11 × 16; X is 11 × 64.
  await expect(canvas(page)).toHaveAttribute('aria-label', /11 rows by 16 columns/);
});

test('the softmax row sums to 1 and equals the lab\'s own reading of the same cell', async ({ page }) => {
  await page.goto('/');
  const heatmap = page.getByTestId('heatmap');
  await expect(heatmap).toHaveAttribute('data-rendered-tokens', '11');
  // The lab: variant A, head 0, cell (query 7 "it", key 1 "animal") via keyboard focus.
  await heatmap.focus();
  for (let i = 0; i < 7; i++) await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowRight');
  const info = page.getByTestId('variant').first().getByTestId('cell-info').first();
  await expect(info).toContainText('query “it” (7) → key “animal” (1): weight');
  const labWeight = (await info.textContent())!.match(/weight ([0-9.e-]+)/)![1];

  await page.getByTestId('page-steps').click();
  await page.getByTestId('pick-query').selectOption('7');
  await goToStage(page, 'Softmax');
  await expect(stage(page)).toHaveAttribute('data-stage', 'Softmax');
  await expect(page.getByTestId('steps-row')).toContainText('Row “it” (7) of Softmax weights');
  const values = await rowValues(page);
  expect(values).toHaveLength(11);
  expect(values[1]).toBe(labWeight);
  const sum = values.map(Number).reduce((a, b) => a + b, 0);
  expect(Math.abs(sum - 1)).toBeLessThan(1e-5);
  expect(Math.abs(Number(await page.getByTestId('steps-row').getAttribute('data-row-sum')) - 1)).toBeLessThan(1e-5);
  await expect(page.getByTestId('steps-row-highlight')).toBeVisible();

  // Clicking a row of the heatmap selects that query.
  const box = (await canvas(page).boundingBox())!;
  const before = await page.getByTestId('steps-row').textContent();
  await canvas(page).focus();
  await page.keyboard.press('ArrowUp');
  await expect(page.getByTestId('pick-query')).toHaveValue('6');
  await expect(page.getByTestId('steps-row')).not.toHaveText(before!);
  expect(box.width).toBeGreaterThan(300);
});

test('the Input formula, the outlined row and every stage follow the picked query', async ({ page }) => {
  await openSteps(page);
  await expect(stage(page)).toHaveAttribute('data-stage', 'Input');
  // The Input stage's two equations, X and the query's own row, are two MathML blocks.
  await expect(page.getByTestId('steps-formula').locator('math')).toHaveCount(2);
  const math = page.getByTestId('steps-formula');
  await expect(math).toContainText('“The”'); // query 0
  // Pick query 7 ("it") with ArrowDown on the stage's heatmap.
  await canvas(page).focus();
  for (let i = 0; i < 7; i++) await page.keyboard.press('ArrowDown');
  await expect(page.getByTestId('pick-query')).toHaveValue('7');
  await expect(math).toContainText('“it”');
  await expect(math).toContainText('PE(7)');
  await expect(math).not.toContainText('“The”');
  await expect(page.getByTestId('steps-row')).toContainText('Row “it” (7) of Input X');
  await expect(page.getByTestId('steps-row-highlight')).toBeVisible();
  // Every stage is the query's: its softmax row, and the Input formula on the way back.
  await goToStage(page, 'Softmax');
  await expect(page.getByTestId('steps-row')).toContainText('Row “it” (7) of Softmax weights');
  await goToStage(page, 'Input');
  await expect(math).toContainText('“it”');
  // The picker moves the formula too.
  await page.getByTestId('pick-query').selectOption('10');
  await expect(math).toContainText('“tired”');
  await expect(math).toContainText('PE(10)');
  await expect(page.getByTestId('steps-row')).toContainText('Row “tired” (10) of Input X');
});

test('a causal mask shows −∞ in the masked stage; linear kinds show the feature maps φ', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByTestId('heatmap')).toHaveAttribute('data-rendered-tokens', '11');
  const a = page.getByTestId('variant').nth(0);
  const b = page.getByTestId('variant').nth(1);
  await a.getByTestId('mask-causal').check();
  await b.getByTestId('attention').selectOption('elu1');

  await page.getByTestId('page-steps').click();
  await page.getByTestId('pick-query').selectOption('2');
  await goToStage(page, 'Masked');
  await expect(stage(page)).toHaveAttribute('data-stage', 'Masked');
  const row = page.getByTestId('steps-row');
  await expect(row).toContainText('−∞');
  const values = await rowValues(page);
  // Query 2 may see keys 0, 1, 2: the 8 later keys are blocked.
  expect(values.filter((v) => v === 'blocked')).toHaveLength(8);
  expect(values.slice(0, 3).every((v) => Number.isFinite(Number(v)))).toBe(true);
  await expect(page.getByTestId('steps-formula').locator('math')).toContainText('∞');

  // Variant B is linear (elu1): φ(Q), φ(K), similarities and the implied matrix.
  await page.getByTestId('pick-variant').selectOption({ label: 'B' });
  await expect(indicator(page)).toHaveText(/\/ 10$/);
  await expect(page.getByTestId('steps-chip').filter({ hasText: 'φ(Q)' })).toHaveCount(1);
  await expect(page.getByTestId('steps-chip').filter({ hasText: 'Softmax' })).toHaveCount(0);
  await goToStage(page, 'φ(Q)');
  await expect(stage(page)).toHaveAttribute('data-stage', 'FeatureQueries');
  await expect(page.getByTestId('steps-formula')).toContainText('elu');
  // elu + 1 > 0 everywhere.
  expect((await rowValues(page)).every((v) => Number(v) > 0)).toBe(true);
  await goToStage(page, 'Implied');
  const sum = (await rowValues(page)).map(Number).reduce((x, y) => x + y, 0);
  expect(Math.abs(sum - 1)).toBeLessThan(1e-4);
  // The choice of variant is the lab's.
  await page.getByTestId('page-lab').click();
  await page.getByTestId('page-steps').click();
  await expect(page.getByTestId('pick-variant')).toHaveValue('1');
});

test('the MathML formula exists and follows the score function', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByTestId('heatmap')).toHaveAttribute('data-rendered-tokens', '11');
  await page.getByTestId('page-steps').click();
  await goToStage(page, 'Raw scores');
  const math = page.getByTestId('steps-formula').locator('math');
  await expect(math).toHaveCount(1);
  // Chromium lays MathML out: the element has a box.
  expect((await math.boundingBox())!.height).toBeGreaterThan(10);
  const scaledDot = await math.innerHTML();
  expect(scaledDot).not.toContain('mfrac');
  await goToStage(page, 'Scaled');
  await expect(math).toContainText('16'); // d_k = 16 under the root
  expect(await math.innerHTML()).toContain('msqrt');

  await page.getByTestId('page-lab').click();
  await page.getByTestId('variant').nth(0).getByTestId('score').selectOption('cosine');
  await page.getByTestId('page-steps').click();
  await goToStage(page, 'Raw scores');
  await expect.poll(() => math.innerHTML()).not.toEqual(scaledDot);
  expect(await math.innerHTML()).toContain('mfrac'); // qᵀk / (‖q‖‖k‖)
  await goToStage(page, 'Scaled');
  expect(await math.innerHTML()).not.toContain('msqrt'); // cosine is not divided by √d_k
});

test('the link reopens the steps page with its variant and head', async ({ page, context }) => {
  await openSteps(page);
  await page.getByTestId('pick-variant').selectOption({ label: 'B' });
  await page.getByTestId('pick-head').selectOption('2');
  await expect.poll(() => page.evaluate(() => location.hash)).toMatch(/^#v1z?\./);
  await page.waitForTimeout(300);
  const hash = await page.evaluate(() => location.hash);
  const other = await context.newPage();
  const errors: string[] = [];
  other.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  await other.goto(`/${hash}`);
  await expect(other.getByTestId('steps-view')).toBeVisible();
  await expect(other.getByTestId('page-steps')).toHaveAttribute('aria-selected', 'true');
  await expect(other.getByTestId('pick-variant')).toHaveValue('1');
  await expect(other.getByTestId('pick-head')).toHaveValue('2');
  await expect(other.getByTestId('steps-canvas')).toHaveAttribute('data-rendered-tokens', '11');
  expect(errors).toEqual([]);
  await other.close();
});

test('cross-attention, one token and an emptied text never break the view', async ({ page }) => {
  await openSteps(page);
  await page.getByTestId('mode-cross').check();
  await expect(canvas(page)).toHaveAttribute('data-rendered-tokens', '4');
  await goToStage(page, 'Softmax');
  expect(await rowValues(page)).toHaveLength(6);
  await goToStage(page, 'Keys');
  await expect(canvas(page)).toHaveAttribute('data-rendered-tokens', '6');
  await page.getByTestId('mode-self').check();
  await page.getByTestId('sentence-input').fill('Hi');
  await expect(canvas(page)).toHaveAttribute('data-rendered-tokens', '1');
  await page.getByTestId('sentence-input').fill('   ');
  await expect(page.getByTestId('steps-error')).toContainText('nothing to attend to');
  await page.getByTestId('sentence-input').fill('我爱机器学习 🙂');
  await expect(canvas(page)).toHaveAttribute('data-rendered-tokens', '7');
});

test('screenshots of the view at 1280×800 and 1920×1080', async ({ page }) => {
  for (const [w, h] of [[1280, 800], [1920, 1080]]) {
    await page.setViewportSize({ width: w, height: h });
    await openSteps(page);
    await page.getByTestId('pick-query').selectOption('7');
    await goToStage(page, 'Softmax');
    await expect(stage(page)).toHaveAttribute('data-stage', 'Softmax');
    await page.waitForTimeout(200);
    await page.screenshot({ path: `test-results/steps-${w}x${h}.png` });
    await goToStage(page, 'Scaled');
    await page.waitForTimeout(200);
    await page.screenshot({ path: `test-results/steps-scaled-${w}x${h}.png` });
  }
});
