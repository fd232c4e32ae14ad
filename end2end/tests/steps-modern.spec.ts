import { type Locator, type Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { englishLeft } from './english';
import { seriousViolations } from './axe';

// Issue 33 in "Step by step": each new kind's own normaliser stage and formula, the
// logit options as stages when on, and the tiles walk of softmax with tiles on.
//
// DOM contract (src/pages/steps/, besides steps.spec.ts's):
//   [data-testid=steps-tiles]        the tiles walk, under the Softmax stage with tiles on
//   input[type=range][data-testid=tiles-pick], button tiles-prev / tiles-next,
//   [data-testid=tiles-indicator]    "t / T"
//   [data-testid=tiles-logits|tiles-max|tiles-sum|tiles-acc]  the tile's logits, m_t, l_t, o_t
//   [data-testid=tiles-done]         after the last tile: data-weights, data-full-weights,
//                                    data-output, data-full-output, data-weights-gap, …
//   [data-testid=tiles-memory]       the floats each way holds

const variant = (page: Page, i: number) => page.getByTestId('variant').nth(i);
const stage = (page: Page) => page.getByTestId('steps-stage');
const formula = (page: Page) => page.getByTestId('steps-formula');
const chips = (page: Page) => page.getByTestId('steps-chip');

async function openLab(page: Page) {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/');
  await expect(page.getByTestId('heatmap').first()).toHaveAttribute('data-rendered-tokens', '11');
}

/** Opens the steps page on variant B. */
async function stepsOnB(page: Page) {
  await page.getByTestId('page-steps').click();
  await page.getByTestId('pick-variant').selectOption({ label: 'B' });
  await expect(page.getByTestId('steps-canvas')).toHaveAttribute('data-rendered-tokens', /^[1-9]/);
}

async function toStage(page: Page, kind: string) {
  // Step with Next until the stage is shown (each chip is named by its stage).
  for (let i = 0; i < 20; i++) {
    if ((await stage(page).getAttribute('data-stage')) === kind) return;
    await page.getByTestId('steps-next').click();
  }
  await expect(stage(page)).toHaveAttribute('data-stage', kind);
}

async function rowSum(page: Page): Promise<number> {
  return Number(await page.getByTestId('steps-row').getAttribute('data-row-sum'));
}

const KINDS: { kind: string; stage: string; name: string; math: RegExp; sumBelowOne: boolean }[] = [
  { kind: 'softmax_plus_one', stage: 'PlusOne', name: 'Softmax + 1 weights', math: /1\s*\+/, sumBelowOne: true },
  { kind: 'sigmoid', stage: 'Sigmoid', name: 'Sigmoid weights', math: /σ/, sumBelowOne: false },
  { kind: 'softpick', stage: 'Softpick', name: 'Softpick weights', math: /max/, sumBelowOne: false },
  { kind: 'sink', stage: 'SinkWeights', name: 'Weights beside the sink', math: /s0/, sumBelowOne: true },
  { kind: 'differential', stage: 'Differential', name: 'Difference a¹ − λa²', math: /λ/, sumBelowOne: true },
  { kind: 'decayed_linear', stage: 'Decayed', name: 'Decayed weights D ⊙ S', math: /D/, sumBelowOne: false },
  { kind: 'favor', stage: 'Implied', name: 'Implied weights Â', math: /Â|A/, sumBelowOne: false },
];

test('each new kind shows its own normaliser stage and formula, not softmax', async ({ page }) => {
  await openLab(page);
  for (const k of KINDS) {
    await page.getByTestId('page-lab').click();
    await variant(page, 1).getByTestId('attention').selectOption(k.kind);
    await stepsOnB(page);
    await expect(chips(page).filter({ hasText: 'Softmax weights' }), k.kind).toHaveCount(0);
    await expect(chips(page).filter({ hasText: k.name }), k.kind).toHaveCount(1);
    await chips(page).filter({ hasText: k.name }).click();
    await expect(stage(page)).toHaveAttribute('data-stage', k.stage);
    await expect(page.getByTestId('steps-title')).toHaveText(k.name);
    await expect(formula(page).locator('math')).toContainText(k.math);
    if (k.sumBelowOne) expect(await rowSum(page), k.kind).toBeLessThan(1);
  }
  // Differential: both maps, and negative weights drawn on the diverging palette.
  await page.getByTestId('page-lab').click();
  await variant(page, 1).getByTestId('attention').selectOption('differential');
  await stepsOnB(page);
  await expect(chips(page).filter({ hasText: 'softmax(z₁)' })).toHaveCount(1);
  await expect(chips(page).filter({ hasText: 'softmax(z₂)' })).toHaveCount(1);
  await toStage(page, 'Differential');
  const values = (await page.getByTestId('steps-row').getAttribute('data-values'))!.split(',').map(Number);
  expect(values.some((v) => v < 0)).toBe(true);
  expect(Math.abs(values.reduce((a, b) => a + b, 0) - 0.2)).toBeLessThan(1e-4); // 1 − λ
});

test('the logit options appear as stages in the core order when on', async ({ page }) => {
  await openLab(page);
  const b = variant(page, 1);
  await b.getByTestId('rope').check();
  await b.getByTestId('softcap').check();
  await b.getByTestId('alibi').check();
  await b.getByTestId('sinks').check();
  await b.getByTestId('mask-causal').check();
  await stepsOnB(page);
  const names = await chips(page).allTextContents();
  const at = (s: string) => names.findIndex((n) => n.includes(s));
  for (const s of ['RoPE: turned queries', 'RoPE: turned keys', 'Softcapped', '+ ALiBi bias']) {
    expect(at(s), s).toBeGreaterThan(-1);
  }
  // z → z/τ → softcap → + ALiBi → mask → softmax; RoPE before the scores.
  expect(at('Values V')).toBeLessThan(at('RoPE: turned queries'));
  expect(at('RoPE: turned keys')).toBeLessThan(at('Raw scores'));
  expect(at('Scaled')).toBeLessThan(at('Softcapped'));
  expect(at('Softcapped')).toBeLessThan(at('+ ALiBi bias'));
  expect(at('+ ALiBi bias')).toBeLessThan(at('Masked'));
  expect(at('Masked')).toBeLessThan(at('Softmax weights'));
  await chips(page).filter({ hasText: 'Softcapped' }).click();
  await expect(formula(page).locator('math')).toContainText('tanh');
  const capped = (await page.getByTestId('steps-row').getAttribute('data-values'))!.split(',').map(Number);
  expect(capped.every((z) => Math.abs(z) <= 5)).toBe(true); // c = 5
  await chips(page).filter({ hasText: 'RoPE: turned queries' }).click();
  await expect(formula(page).locator('math')).toContainText('cos');
  // Sinks: the first key stays open for the last query, said in the formula and note.
  await chips(page).filter({ hasText: 'Masked' }).click();
  await expect(formula(page).locator('math')).toContainText('∨');
  await expect(page.getByTestId('steps-note')).toContainText('attention sinks');
  // Key/value groups: the K stage says which group this head reads.
  await page.getByTestId('page-lab').click();
  await b.getByTestId('kv-groups').selectOption('1');
  await stepsOnB(page);
  await chips(page).filter({ hasText: 'Keys K' }).first().click();
  await expect(page.getByTestId('steps-note')).toContainText('reads key/value group 0 of 1, shared by heads 0–3');
});

async function walkToLast(page: Page) {
  const tiles = page.getByTestId('steps-tiles');
  await expect(tiles).toBeVisible();
  await expect(page.getByTestId('tiles-indicator')).toHaveText('1 / 3'); // 11 keys, B = 4
  await expect(page.getByTestId('tiles-done')).toHaveCount(0);
  // The slider is a labelled control: ArrowRight steps the tiles.
  const pick = page.getByTestId('tiles-pick');
  await expect(pick).toHaveAttribute('aria-label', /.+/);
  await pick.focus();
  await page.keyboard.press('ArrowRight');
  await expect(page.getByTestId('tiles-indicator')).toHaveText('2 / 3');
  const sum2 = Number(await page.getByTestId('tiles-sum').getAttribute('data-value'));
  await page.getByTestId('tiles-next').click();
  await expect(page.getByTestId('tiles-indicator')).toHaveText('3 / 3');
  await expect(page.getByTestId('tiles-next')).toBeDisabled();
  expect(sum2).toBeGreaterThan(0);
}

test('softmax with tiles on walks the tiles and ends at the full softmax', async ({ page }) => {
  await openLab(page);
  const b = variant(page, 1);
  await b.getByTestId('score').selectOption('scaled_dot');
  await b.getByTestId('tiles').check();
  await expect(b.getByTestId('tiles-b')).toHaveValue('4');
  await stepsOnB(page);
  await page.getByTestId('pick-query').selectOption('7');
  await chips(page).filter({ hasText: 'Softmax weights' }).click();
  await expect(stage(page)).toHaveAttribute('data-stage', 'Softmax');
  const full = (await page.getByTestId('steps-row').getAttribute('data-values'))!.split(',').map(Number);
  await walkToLast(page);
  const done = page.getByTestId('tiles-done');
  await expect(done).toBeVisible();
  const tiled = (await done.getAttribute('data-weights'))!.split(',').map(Number);
  const plain = (await done.getAttribute('data-full-weights'))!.split(',').map(Number);
  expect(tiled).toEqual(full); // the stage's weights are the tiled ones
  for (let j = 0; j < 11; j++) expect(Math.abs(tiled[j] - plain[j])).toBeLessThan(1e-6);
  expect(Number(await done.getAttribute('data-weights-gap'))).toBeLessThan(1e-6);
  const out = (await done.getAttribute('data-output'))!.split(',').map(Number);
  const fullOut = (await done.getAttribute('data-full-output'))!.split(',').map(Number);
  expect(out).toHaveLength(16);
  for (let c = 0; c < 16; c++) expect(Math.abs(out[c] - fullOut[c])).toBeLessThan(1e-5);
  // o_T / l_T is the output row.
  const acc = (await page.getByTestId('tiles-acc').getAttribute('data-values'))!.split(',').map(Number);
  const l = Number(await page.getByTestId('tiles-sum').getAttribute('data-value'));
  for (let c = 0; c < 16; c++) expect(Math.abs(acc[c] / l - out[c])).toBeLessThan(1e-6);
  // Memory: B + 2 + d_v = 22 floats per query against m = 11; n × B = 44 against 121.
  await expect(page.getByTestId('tiles-memory')).toContainText('22 floats');
  await expect(page.getByTestId('tiles-memory')).toContainText('44 logits at once (n × B) against 121');
  await page.screenshot({ path: 'test-results/steps-tiles-1280x800.png', fullPage: true });
  // The walk's controls are labelled and readable: axe finds nothing serious.
  expect(await seriousViolations(page)).toEqual([]);
  // Without tiles, no walk.
  await page.getByTestId('page-lab').click();
  await b.getByTestId('tiles').uncheck();
  await stepsOnB(page);
  await chips(page).filter({ hasText: 'Softmax weights' }).click();
  await expect(page.getByTestId('steps-tiles')).toHaveCount(0);
});

test('the tiles walk and a differential variant in 中文 leave no English', async ({ page }) => {
  await openLab(page);
  const b: Locator = variant(page, 1);
  await b.getByTestId('tiles').check();
  await stepsOnB(page);
  await page.getByTestId('lang-zh').click();
  await expect(page.getByTestId('lang-zh')).toHaveAttribute('aria-pressed', 'true');
  await chips(page).filter({ hasText: 'softmax 权重' }).click();
  await walkToLast(page);
  await expect(page.getByTestId('tiles-done')).toContainText('实测最大差');
  await expect.poll(() => englishLeft(page, '[data-testid=steps-view]'), { timeout: 15_000 }).toEqual([]);
  await page.getByTestId('page-lab').click();
  await b.getByTestId('tiles').uncheck();
  await b.getByTestId('attention').selectOption('differential');
  await stepsOnB(page);
  await chips(page).filter({ hasText: '差 a¹ − λa²' }).click();
  await expect(stage(page)).toHaveAttribute('data-stage', 'Differential');
  await expect(page.getByTestId('steps-note')).toContainText('权重可以为负');
  await expect.poll(() => englishLeft(page, '[data-testid=steps-view]'), { timeout: 15_000 }).toEqual([]);
  await page.screenshot({ path: 'test-results/steps-differential-zh-1280x800.png', fullPage: true });
});

test('screenshot: a differential variant\'s stages at 1280×800', async ({ page }) => {
  await openLab(page);
  await variant(page, 1).getByTestId('attention').selectOption('differential');
  await stepsOnB(page);
  await page.getByTestId('pick-query').selectOption('7');
  await toStage(page, 'Differential');
  await page.waitForTimeout(200);
  await page.screenshot({ path: 'test-results/steps-differential-1280x800.png' });
});
