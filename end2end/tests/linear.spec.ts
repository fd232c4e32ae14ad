import { type Page } from '@playwright/test';
import { DEFAULT_SENTENCE, expect, test, toChinese } from './fixtures';
import { englishLeft } from './english';
import { seriousViolations } from './axe';

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
//   [data-testid=decay-off|decay-constant|decay-gates]  the stepper's decay (radios); the
//                                                stepper's data-decay says which; decay-gamma
//                                                the γ slider; with the decay on: rnn-update
//                                                (S_t's formula), rnn-gate (a_t, data-value),
//                                                canvas rnn-gates, decay-d and decay-w (D and
//                                                D ⊙ QKᵀ/√d_k, row t outlined as
//                                                decay-d-row-highlight), decay-diff-all
//                                                (largest |o_t − (WV)_t|, data-value)
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

test('the decay in the RNN stepper: S_t = a_t·S_(t−1) + k_t v_tᵀ beside D and the parallel form', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await open(page);
  const stepper = page.getByTestId('rnn-stepper');
  await expect(stepper).toHaveAttribute('data-decay', 'off');
  await expect(stepper.getByTestId('rnn-z')).toBeVisible();
  await expect(stepper.getByTestId('decay-gamma')).toBeDisabled();
  await expect(stepper.getByTestId('decay-d')).toHaveCount(0);

  // On with the keyboard: the radios of one group move with the arrow keys.
  await stepper.getByTestId('decay-off').focus();
  await page.keyboard.press('ArrowRight');
  await expect(stepper.getByTestId('decay-constant')).toBeChecked();
  await expect(stepper).toHaveAttribute('data-decay', 'constant');
  await expect(stepper.locator('h3')).toContainText('S_t = a_t·S_(t−1) + k_t v_tᵀ');
  // No z_t and no normaliser, and why.
  await expect(stepper.getByTestId('rnn-z')).toHaveCount(0);
  await expect(stepper.getByTestId('rnn-no-normaliser')).toContainText('decayed linear attention has no normaliser');
  await expect(stepper.getByTestId('rnn-state-size')).toHaveText('16×16');
  // D and the weights D ⊙ QKᵀ/√d_k, n × n, painted.
  for (const id of ['decay-d', 'decay-w']) {
    await expect(stepper.getByTestId(id)).toHaveAttribute('data-rows', '11');
    await expect(stepper.getByTestId(id)).toHaveAttribute('data-cols', '11');
    expect(await colours(page, id), `${id} is painted`).toBeGreaterThan(20);
  }
  await expect(stepper.getByTestId('rnn-gates')).toHaveAttribute('data-cols', '11');
  expect(await seriousViolations(page)).toEqual([]);

  // Step to t = 3 with the keyboard: the formula with a_3 = γ = 0.90.
  await stepper.getByTestId('rnn-step').focus();
  for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowRight');
  await expect(stepper.getByTestId('rnn-diff')).toHaveAttribute('data-t', '3');
  await expect(stepper.getByTestId('rnn-update')).toHaveText('S_3 = 0.90·S_2 + k_3 v_3ᵀ');
  await expect(stepper.getByTestId('rnn-read')).toHaveText('o_3 = S_3ᵀ q_3 / √d_k');
  await expect(stepper.getByTestId('rnn-step')).toContainText('t = 3 of 11: absorb “cross” with a_3 = 0.90');
  await expect(page.getByTestId('decay-d-row-highlight')).toBeVisible();
  expect(await value(page, 'rnn-diff')).toBeLessThan(1e-5);
  const largest = await value(page, 'decay-diff-all');
  expect(Number.isFinite(largest) && largest < 1e-5, `largest difference ${largest}`).toBe(true);
  await expect(stepper.getByTestId('decay-diff-all')).toContainText('largest difference over every t');

  // γ with the keyboard: 15 steps of 0.01 down.
  await stepper.getByTestId('decay-gamma').focus();
  for (let i = 0; i < 15; i++) await page.keyboard.press('ArrowLeft');
  await expect(stepper.getByTestId('decay-gamma-value')).toHaveText('0.75');
  await expect(stepper.getByTestId('rnn-update')).toHaveText('S_3 = 0.75·S_2 + k_3 v_3ᵀ');
  await expect(stepper.getByTestId('rnn-diff')).toHaveAttribute('data-t', '3');
  // The ends: γ = 0 keeps only the diagonal, γ = 1 forgets nothing; never NaN.
  for (const g of ['0', '1']) {
    await stepper.getByTestId('decay-gamma').fill(g);
    await expect(stepper.getByTestId('decay-gamma-value')).toHaveText(`${g}.00`);
    await expect(stepper.getByTestId('rnn-update')).toHaveText(`S_3 = ${g}.00·S_2 + k_3 v_3ᵀ`);
    expect(await value(page, 'decay-diff-all')).toBeLessThan(1e-5);
    await expect(stepper).not.toContainText('NaN');
  }

  // A gate per token: a_t in [0, 1], the one in the formula.
  await stepper.getByTestId('decay-gates').check();
  await expect(stepper).toHaveAttribute('data-decay', 'gates');
  await expect(stepper.getByTestId('decay-gamma')).toBeDisabled();
  await expect(stepper.getByTestId('rnn-lead')).toContainText('σ(w·k_t + 1)');
  await expect(stepper.getByTestId('rnn-update')).toHaveText(/^S_3 = [01]\.\d\d·S_2 \+ k_3 v_3ᵀ$/);
  const gate = await value(page, 'rnn-gate');
  expect(gate >= 0 && gate <= 1, `a_3 = ${gate}`).toBe(true);
  await expect(stepper.getByTestId('rnn-update')).toContainText(`${gate.toFixed(2)}·S_2`);
  expect(await value(page, 'decay-diff-all')).toBeLessThan(1e-5);
  // A row of D picks the step: one row down from t = 3 is t = 4 (not two).
  await stepper.getByTestId('decay-d').focus();
  await page.keyboard.press('ArrowDown');
  await expect(stepper.getByTestId('rnn-diff')).toHaveAttribute('data-t', '4');
  await expect(stepper.getByTestId('rnn-t-value')).toHaveText('4');
  await stepper.getByTestId('rnn-step').focus();
  await page.keyboard.press('End');
  await expect(stepper.getByTestId('rnn-diff')).toHaveAttribute('data-t', '10');
  await stepper.screenshot({ path: '/tmp/rnn-decay-gates.png' });

  // Off again: today's stepper, with z_t.
  await stepper.getByTestId('decay-off').check();
  await expect(stepper.getByTestId('rnn-z')).toHaveAttribute('data-cols', '16');
  await expect(stepper.getByTestId('decay-d')).toHaveCount(0);
  await expect(stepper.getByTestId('rnn-step')).toContainText('z_10');
});

test('a decayed_linear variant opens the stepper with its own γ, and another kind turns the decay off', async ({ page }) => {
  // A link (or a lesson's step) to the linear page with a decayed_linear variant of γ = 0.5.
  const link = (v: object) =>
    Buffer.from(JSON.stringify({ u: 'linear', w: [0, 0, 0, 0], v: [v] })).toString('base64url');
  await page.goto(`/#v1.${link({ n: 'A', a: 'decayed_linear', dg: 0.5 })}`);
  const stepper = page.getByTestId('rnn-stepper');
  await expect(stepper).toHaveAttribute('data-decay', 'constant');
  await expect(stepper.getByTestId('decay-constant')).toBeChecked();
  await expect(stepper.getByTestId('decay-gamma-value')).toHaveText('0.50');
  await expect(stepper.getByTestId('decay-d')).toHaveAttribute('data-rows', '11');
  expect(await value(page, 'decay-diff-all')).toBeLessThan(1e-5);
  // The knob still moves it.
  await stepper.getByTestId('decay-gates').check();
  await expect(stepper).toHaveAttribute('data-decay', 'gates');
  // Another variant (elu1, causal): the decay goes off, the kernel stepper is back.
  await page.goto(`/#v1.${link({ n: 'A', a: 'elu1', c: true })}`);
  await expect(stepper).toHaveAttribute('data-decay', 'off');
  await expect(stepper.getByTestId('rnn-z')).toBeVisible();
  await expect(stepper.getByTestId('decay-d')).toHaveCount(0);
  // And back to a decayed variant of γ = 0.8.
  await page.goto(`/#v1.${link({ n: 'A', a: 'decayed_linear', dg: 0.8 })}`);
  await expect(stepper).toHaveAttribute('data-decay', 'constant');
  await expect(stepper.getByTestId('decay-gamma-value')).toHaveText('0.80');
});

test('the decayed stepper in 中文, on one token, and refused for cross-attention', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await open(page);
  const stepper = page.getByTestId('rnn-stepper');
  await stepper.getByTestId('decay-constant').check();
  await expect(stepper.getByTestId('decay-d')).toHaveAttribute('data-rows', '11');
  await stepper.screenshot({ path: '/tmp/rnn-decay-constant.png' });
  await stepper.getByTestId('rnn-step').scrollIntoViewIfNeeded();
  await page.screenshot({ path: '/tmp/rnn-decay-viewport.png' });
  await toChinese(page);
  await expect(stepper.getByTestId('rnn-no-normaliser')).toContainText('衰减线性注意力没有归一化项');
  await expect(stepper.getByTestId('rnn-step')).toContainText('吸收');
  await expect.poll(() => englishLeft(page, '[data-testid=rnn-stepper]')).toEqual([]);
  await stepper.getByTestId('decay-gates').check();
  await expect(stepper.getByTestId('rnn-lead')).toContainText('门控模型');
  await expect.poll(() => englishLeft(page, '[data-testid=rnn-stepper]')).toEqual([]);
  await page.getByTestId('theme').selectOption('dark');
  expect(await seriousViolations(page)).toEqual([]);

  await page.getByTestId('sentence-input').fill('cat');
  await expect(stepper.getByTestId('decay-d')).toHaveAttribute('data-rows', '1');
  await expect(stepper.getByTestId('rnn-update')).toHaveText(/^S_0 = [01]\.\d\d·S_−1 \+ k_0 v_0ᵀ, S_−1 = 0$/);
  expect(await value(page, 'decay-diff-all')).toBeLessThan(1e-5);
  await expect(stepper).not.toContainText('NaN');
  await page.getByTestId('mode-cross').check();
  await expect(stepper.getByTestId('rnn-error')).toContainText('交叉注意力');
});

test('FAVOR+ against softmax: the error against the number of features, as a chart and a table', async ({ page }) => {
  await open(page);
  const panel = page.getByTestId('favor-panel');
  const rows = panel.getByTestId('favor-row');
  // 4 to 4096 features for the 11 tokens, each averaged over 4 draws.
  await expect(rows).toHaveCount(11);
  await expect(rows.first()).toHaveAttribute('data-features', '4');
  await expect(rows.last()).toHaveAttribute('data-features', '4096');
  const means = await rows.evaluateAll((rs) => rs.map((r) => Number(r.getAttribute('data-mean'))));
  expect(means.every((m) => Number.isFinite(m) && m > 0)).toBe(true);
  expect(means[means.length - 1] * 2).toBeLessThan(means[0]);
  // Three curves: the mean, the largest error, and the 1/√r rate (11 markers each for
  // the two measured ones).
  await expect(panel.getByTestId('favor-chart')).toHaveAttribute('data-points', '22');
  await expect(panel.getByTestId('favor-chart-legend')).toContainText('∝ 1/√r');
  // Another head, other queries and keys: other numbers.
  await page.getByTestId('pick-head').selectOption('1');
  await expect
    .poll(async () => Number(await rows.first().getAttribute('data-mean')))
    .not.toBe(means[0]);
});
