import { type Locator, type Page } from '@playwright/test';
import { DEFAULT_SENTENCE, expect, test } from './fixtures';

// The lab, as a class uses it: sentences, model settings, variants side by side, every
// head on canvas, the comparison, and the whole state in the link.
//
// DOM contract (implemented by src/):
//   [data-testid=variant]                 one panel per variant (data-variant = its name)
//     canvas[data-figure=head]            the selected head (the first variant's is
//                                         data-testid=heatmap); data-rendered-tokens after paint
//     canvas[data-figure=grid]            every head as small multiples (click selects)
//     canvas[data-figure=average]         the head average
//     [data-testid=cell-info]             the reading of the cell under the pointer / focus
//     select[data-testid=score|attention], input[data-testid=temperature|temperature-value|
//     linformer-k|mask-causal|mask-padding|mask-window|window-r|mask-strided|strided-s|
//     edit-custom], button[data-testid=global-token]
//   [data-testid=compare]                 canvas[data-figure=difference] + compare-table
//   [data-testid=notice]                  one region for every page-level message
//   [data-testid=share-link], [data-testid=copy-link]


const variant = (page: Page, i: number) => page.getByTestId('variant').nth(i);
const head = (v: Locator) => v.locator('canvas[data-figure=head]');
const grid = (v: Locator) => v.locator('canvas[data-figure=grid]');
const average = (v: Locator) => v.locator('canvas[data-figure=average]');
const difference = (page: Page) => page.locator('canvas[data-figure=difference]');
const pixels = (canvas: Locator) =>
  canvas.evaluate((c) => (c as HTMLCanvasElement).toDataURL('image/png'));

/** Every canvas of the page, in order. */
async function allPixels(page: Page): Promise<string[]> {
  return page.locator('canvas').evaluateAll((cs) =>
    cs.map((c) => (c as HTMLCanvasElement).toDataURL('image/png')),
  );
}

async function open(page: Page, path = '/') {
  await page.goto(path);
  await expect(head(variant(page, 0))).toHaveAttribute('data-rendered-tokens', /^[1-9]/);
  await expect(head(variant(page, 1))).toHaveAttribute('data-rendered-tokens', /^[1-9]/);
}

/** Moves the keyboard focus of a heatmap to cell (row, col) and presses Enter. */
async function activateCell(page: Page, canvas: Locator, row: number, col: number) {
  await canvas.focus();
  for (let i = 0; i < 12; i++) await page.keyboard.press('ArrowUp');
  await page.keyboard.press('Home');
  for (let i = 0; i < row; i++) await page.keyboard.press('ArrowDown');
  for (let i = 0; i < col; i++) await page.keyboard.press('ArrowRight');
  await page.keyboard.press('Enter');
}

/** Waits until `canvas` no longer shows `before`. */
async function changes(canvas: Locator, before: string, what: string) {
  await expect.poll(() => pixels(canvas), { message: `${what} repaints` }).not.toEqual(before);
}

/**
 * Runs `act` and checks that it changes variant B's canvas `which` and leaves variant
 * A's canvases alone.
 */
async function changesOnlyB(page: Page, what: string, act: (b: Locator) => Promise<void>) {
  const [a, b] = [variant(page, 0), variant(page, 1)];
  const aBefore = [await pixels(head(a)), await pixels(grid(a)), await pixels(average(a))];
  const bBefore = await pixels(head(b));
  await act(b);
  await changes(head(b), bBefore, `${what}: B's head`);
  // Give a stray repaint time to happen before checking that none did.
  await page.waitForTimeout(150);
  expect(
    [await pixels(head(a)), await pixels(grid(a)), await pixels(average(a))],
    `${what}: A's canvases are untouched`,
  ).toEqual(aBefore);
}

test('typing a sentence updates the tokens and every canvas', async ({ page }) => {
  await open(page);
  const before = await allPixels(page);
  expect(before.length).toBe(7); // 2 × (head, grid, average) + difference
  await page.getByTestId('sentence-input').fill('Colourless green ideas sleep furiously');
  await expect(page.getByTestId('token-strip').getByTestId('token')).toHaveCount(5);
  await expect(head(variant(page, 0))).toHaveAttribute('data-rendered-tokens', '5');
  await expect(head(variant(page, 1))).toHaveAttribute('data-rendered-tokens', '5');
  await expect
    .poll(async () => {
      const now = await allPixels(page);
      return now.filter((p, i) => p === before[i]).length;
    }, { message: 'canvases still showing the old sentence' })
    .toBe(0);

  // The example picker: Chinese, one token per character, and the long paragraph.
  await page.getByTestId('examples').selectOption('2');
  await expect(page.getByTestId('token-strip').getByTestId('token').first()).toHaveText('小');
  await page.getByTestId('examples').selectOption('4');
  const n = await page.getByTestId('token-strip').getByTestId('token').count();
  expect(n).toBeGreaterThan(80);
  await expect(head(variant(page, 0))).toHaveAttribute('data-rendered-tokens', String(n));
});

test('each kind of variant knob changes its own canvas only', async ({ page }) => {
  test.setTimeout(120_000);
  await open(page);
  await changesOnlyB(page, 'score', (b) => b.getByTestId('score').selectOption('cosine'));
  await changesOnlyB(page, 'typed temperature', (b) => b.getByTestId('temperature-value').fill('0.25').then(() => b.getByTestId('temperature-value').press('Enter')));
  await expect(variant(page, 1).getByTestId('temperature')).toHaveValue(/^-0\.60?$/);
  await changesOnlyB(page, 'temperature slider', (b) => b.getByTestId('temperature').fill('1'));
  await expect(variant(page, 1).getByTestId('temperature-value')).toHaveValue('10');
  await changesOnlyB(page, 'causal mask', (b) => b.getByTestId('mask-causal').check());
  await changesOnlyB(page, 'window mask', (b) => b.getByTestId('mask-window').check());
  await changesOnlyB(page, 'window radius', (b) => b.getByTestId('window-r').fill('1').then(() => b.getByTestId('window-r').press('Enter')));
  await changesOnlyB(page, 'window off', (b) => b.getByTestId('mask-window').uncheck());
  await changesOnlyB(page, 'strided mask', (b) => b.getByTestId('mask-strided').check());
  await changesOnlyB(page, 'global token', (b) => b.getByTestId('global-token').nth(7).click());
  await expect(variant(page, 1).getByTestId('global-token').nth(7)).toHaveAttribute('aria-pressed', 'true');
  await changesOnlyB(page, 'custom cell', async (b) => {
    await b.getByTestId('edit-custom').check();
    // (3, 0): allowed by the causal and strided (s = 3) masks, so blocking it shows.
    await activateCell(page, head(b), 3, 0);
  });
  await expect(variant(page, 1).getByTestId('cell-info').first()).toContainText('query “cross” (3) → key “The” (0): blocked by the mask');
  await expect(variant(page, 1).getByTestId('custom-count')).toHaveText('1');
  for (const id of ['mask-strided', 'mask-causal']) {
    await variant(page, 1).getByTestId(id).uncheck();
  }
  await variant(page, 1).getByTestId('clear-custom').click();
  await variant(page, 1).getByTestId('global-token').nth(7).click();
  await expect(variant(page, 1).getByTestId('global-token').nth(7)).toHaveAttribute('aria-pressed', 'false');
  await changesOnlyB(page, 'attention kind', (b) => b.getByTestId('attention').selectOption('elu1'));
  // Kernel attention has no logits: τ and the score function are disabled, with a reason.
  await expect(variant(page, 1).getByTestId('temperature-value')).toBeDisabled();
  await expect(variant(page, 1).getByTestId('score')).toBeDisabled();
  await changesOnlyB(page, 'Linformer', (b) => b.getByTestId('attention').selectOption('linformer'));
  await expect(head(variant(page, 1))).toHaveAttribute('aria-label', /by 4 keys/);
  await changesOnlyB(page, 'Linformer k', (b) => b.getByTestId('linformer-k').fill('6').then(() => b.getByTestId('linformer-k').press('Enter')));
  await expect(head(variant(page, 1))).toHaveAttribute('aria-label', /by 6 keys/);
});

test('forbidden combinations are disabled with a one-line reason on hover and focus', async ({ page }) => {
  await open(page);
  const b = variant(page, 1);
  await b.getByTestId('mask-causal').check();
  // Linformer cannot be causal: its option is disabled, and the knob says why.
  await expect(b.locator('select[data-testid=attention] option[value=linformer]')).toBeDisabled();
  const attention = b.getByTestId('attention');
  const whyId = await attention.getAttribute('aria-describedby');
  const why = page.locator(`[id="${whyId}"]`);
  await expect(why).toContainText('Linformer cannot apply the causal mask');
  await attention.focus();
  await expect(why).toBeVisible();
  // Efficient attention cannot be causal either; turning the mask off enables both.
  await b.getByTestId('mask-causal').uncheck();
  await expect(b.locator('select[data-testid=attention] option[value=linformer]')).toBeEnabled();
  await b.getByTestId('attention').selectOption('linformer');
  const causal = b.getByTestId('mask-causal');
  await expect(causal).toBeDisabled();
  await expect(causal).toHaveAttribute('aria-describedby', /.+/);
  await causal.locator('xpath=ancestor::div[contains(@class,"knob")][1]').hover();
  await expect(page.locator(`[id="${await causal.getAttribute('aria-describedby')}"]`)).toBeVisible();

  // Model settings: 5 heads do not divide d_model = 64, so 5 cannot be chosen;
  // a d_model that 4 heads do not divide is refused with its reason, not changed.
  await expect(page.locator('select[data-testid=heads] option[value="5"]')).toBeDisabled();
  await page.getByTestId('d-model').fill('66');
  await page.getByTestId('d-model').press('Enter');
  await expect(page.locator('#d-model-why')).toContainText('not divisible by 4 heads');
  await expect(page.getByTestId('d-k')).toHaveText('16');
  const before = await pixels(head(variant(page, 0)));
  await page.getByTestId('d-model').fill('32');
  await page.getByTestId('d-model').press('Enter');
  await expect(page.getByTestId('d-k')).toHaveText('8');
  await changes(head(variant(page, 0)), before, 'd_model = 32');
});

test('model settings change every variant', async ({ page }) => {
  await open(page);
  const act = async (what: string, f: () => Promise<void>) => {
    const a = await pixels(head(variant(page, 0)));
    const b = await pixels(head(variant(page, 1)));
    await f();
    await changes(head(variant(page, 0)), a, `${what}: A`);
    await changes(head(variant(page, 1)), b, `${what}: B`);
  };
  await act('heads', () => page.getByTestId('heads').selectOption('8'));
  await expect(grid(variant(page, 0))).toHaveAttribute('aria-label', /All 8 heads/);
  await act('seed', async () => {
    await page.getByTestId('seed').fill('7');
    await page.getByTestId('seed').press('Enter');
  });
  await act('positions', () => page.getByTestId('position').selectOption('none'));
  await act('embedding scale', () => page.getByTestId('embedding-scale').uncheck());
  await act('pad to length', async () => {
    await page.getByTestId('pad-to').fill('14');
    await page.getByTestId('pad-to').press('Enter');
  });
  await expect(head(variant(page, 0))).toHaveAttribute('data-rendered-tokens', '14');
  // Padding mask: now there are <pad> keys to block.
  await changesOnlyB(page, 'padding mask', (b) => b.getByTestId('mask-padding').check());
});

test('the head grid selects the head that the large heatmaps show', async ({ page }) => {
  await open(page);
  const a = variant(page, 0);
  await expect(head(a)).toHaveAttribute('aria-label', /^A · .* · Head 0 ·/);
  const box = (await grid(a).boundingBox())!;
  const before = await pixels(head(a));
  // Four heads in one row: the third tile is head 2.
  await grid(a).click({ position: { x: box.width * 0.5, y: box.height * 0.55 } });
  await expect(head(a)).toHaveAttribute('aria-label', /^A · .* · Head 2 ·/);
  await expect(head(variant(page, 1))).toHaveAttribute('aria-label', /^B · .* · Head 2 ·/);
  await changes(head(a), before, 'head 2');
  await grid(a).focus();
  await page.keyboard.press('ArrowRight');
  await expect(head(a)).toHaveAttribute('aria-label', /^A · .* · Head 3 ·/);
  // Pointing at a tile's cell reads that head's exact weight without selecting it.
  const gridInfo = a.getByTestId('cell-info').nth(1);
  await page.mouse.move(0, 0);
  await expect(gridInfo).toContainText('Point at any head');
  await grid(a).hover({ position: { x: box.width * 0.15, y: box.height * 0.55 } });
  await expect(gridInfo).toContainText(/^Head 0: query “.+” \(\d+\) → key “.+” \(\d+\): weight 0\.\d{4,}/);
  await grid(a).hover({ position: { x: box.width * 0.7, y: box.height * 0.55 } });
  await expect(gridInfo).toContainText(/^Head 3: query/);
  await expect(head(a)).toHaveAttribute('aria-label', /^A · .* · Head 3 ·/);
});

test('variants are added, duplicated, renamed and removed', async ({ page }) => {
  await open(page);
  const panels = page.getByTestId('variant');
  await expect(panels).toHaveCount(2);
  await page.getByTestId('add-variant').click();
  await expect(panels).toHaveCount(3);
  await expect(variant(page, 2).getByTestId('variant-name')).toHaveValue('C');
  await expect(head(variant(page, 2))).toHaveAttribute('data-rendered-tokens', '11');
  await variant(page, 1).getByTestId('duplicate-variant').click();
  await expect(panels).toHaveCount(4);
  await expect(variant(page, 3).getByTestId('variant-name')).toHaveValue('D');
  await expect(variant(page, 3).getByTestId('score')).toHaveValue('dot');
  await expect(page.getByTestId('add-variant')).toBeDisabled();
  await expect(page.locator('.variants-bar .why')).toContainText('at most 4 variants');

  await variant(page, 3).getByTestId('variant-name').fill('Unscaled');
  await variant(page, 3).getByTestId('variant-name').press('Enter');
  await expect(head(variant(page, 3))).toHaveAttribute('aria-label', /^Unscaled · .* · Head 0 ·/);
  await expect(page.locator('[data-testid=variant][data-variant=Unscaled]')).toHaveCount(1);

  // Removing A keeps B's figures (and makes B's canvas the first heatmap).
  const bPixels = await pixels(head(variant(page, 1)));
  await variant(page, 0).getByTestId('remove-variant').click();
  await expect(panels).toHaveCount(3);
  await expect(variant(page, 0).getByTestId('variant-name')).toHaveValue('B');
  await expect(page.getByTestId('heatmap')).toHaveCount(1);
  expect(await pixels(page.getByTestId('heatmap'))).toEqual(bPixels);
  for (let i = 0; i < 2; i++) await variant(page, 0).getByTestId('remove-variant').click();
  await expect(panels).toHaveCount(1);
  await expect(variant(page, 0).getByTestId('remove-variant')).toBeDisabled();
});

test('the difference view compares two variants', async ({ page }) => {
  await open(page);
  const compare = page.getByTestId('compare');
  await expect(difference(page)).toHaveAttribute('data-rendered-tokens', '11');
  await expect(compare.getByTestId('compare-table')).toBeVisible();
  const maxAbs = Number(await compare.getByTestId('max-abs').textContent());
  expect(maxAbs).toBeGreaterThan(0);
  for (const id of ['mean-abs', 'mean-kl', 'mean-js', 'entropy-a', 'entropy-b']) {
    expect(Number(await compare.getByTestId(id).textContent()), id).toBeGreaterThanOrEqual(0);
  }
  // B (unscaled dot product) is sharper than A: lower mean entropy.
  expect(Number(await compare.getByTestId('entropy-b').textContent())).toBeLessThan(
    Number(await compare.getByTestId('entropy-a').textContent()),
  );
  const before = await pixels(difference(page));
  await compare.getByTestId('compare-what').selectOption('average');
  await changes(difference(page), before, 'difference of the averages');
  // Picking the other side's variant swaps the two: a variant is never compared with
  // itself, and the link the page writes reopens without a notice.
  await compare.getByTestId('compare-b').selectOption('0');
  await expect(compare.getByTestId('compare-a')).toHaveValue('1');
  await expect(compare.getByTestId('compare-b')).toHaveValue('0');
  await expect(compare).not.toContainText('Pick two different variants');
  await expect(difference(page)).toHaveAttribute('data-rendered-tokens', '11');
  await expect(difference(page)).toHaveAttribute('aria-label', /B − A/);
  await page.waitForTimeout(400);
  const swapped = await page.getByTestId('share-link').inputValue();
  const other = await page.context().newPage();
  await other.goto(swapped);
  await expect(other.getByTestId('difference-heatmap')).toHaveAttribute('data-rendered-tokens', '11');
  await expect(other.getByTestId('compare-a')).toHaveValue('1');
  await expect(other.getByTestId('notice')).toHaveCount(0);
  await other.close();
  await compare.getByTestId('compare-a').selectOption('0');
  await expect(compare.getByTestId('compare-b')).toHaveValue('1');
  await expect(difference(page)).toHaveAttribute('aria-label', /A − B/);
  // Hovering the difference reads a signed value.
  const box = (await difference(page).boundingBox())!;
  await difference(page).hover({ position: { x: box.width * 0.4, y: box.height * 0.5 } });
  await expect(compare.getByTestId('cell-info')).toContainText(/query “.+” \(\d+\) → key “.+” \(\d+\)/);
});

test('a difference repainted as its range follows a knob shows what a fresh page shows', async ({ page, browser }) => {
  await open(page);
  const compare = page.getByTestId('compare');
  await expect(difference(page)).toHaveAttribute('data-rendered-tokens', '11');
  const tau = variant(page, 1).getByTestId('temperature-value');
  // Temperatures that move the largest difference across the legend's round numbers,
  // so its scale is redrawn over the canvas as well as its cells.
  const seen = new Set<string>();
  for (const t of ['0.4', '3', '0.7', '8', '1.6']) {
    const before = await pixels(difference(page));
    await tau.fill(t);
    await tau.press('Enter');
    await changes(difference(page), before, `τ ${t}`);
    seen.add((await compare.getByTestId('max-abs').textContent())!);
  }
  expect(seen.size, 'the largest difference moved').toBeGreaterThan(3);
  await page.waitForTimeout(300);
  const repainted = await pixels(difference(page));
  const link = await page.evaluate(() => location.href);
  const fresh = await browser.newPage({ viewport: page.viewportSize()! });
  await fresh.goto(link);
  await expect(fresh.locator('canvas[data-figure=difference]')).toHaveAttribute('data-rendered-tokens', '11');
  await expect(fresh.getByTestId('variant').nth(1).getByTestId('temperature-value')).toHaveValue('1.6');
  await expect.poll(() => pixels(fresh.locator('canvas[data-figure=difference]'))).toEqual(repainted);
  await fresh.close();
});

test('hover and keyboard focus read the exact weight and the raw score', async ({ page }) => {
  await open(page);
  const a = variant(page, 0);
  const info = a.getByTestId('cell-info').first();
  const box = (await head(a).boundingBox())!;
  await head(a).hover({ position: { x: box.width * 0.45, y: box.height * 0.5 } });
  await expect(info).toContainText(/query “.+” \(\d+\) → key “.+” \(\d+\): weight 0\.\d{4,}; raw score before softmax -?\d/);
  // Keyboard: focus starts at (0, 0); → moves to key 1.
  await page.mouse.move(0, 0);
  await head(a).focus();
  await expect(info).toContainText('query “The” (0) → key “The” (0): weight');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowDown');
  await expect(info).toContainText('query “animal” (1) → key “animal” (1): weight');
  const weight = Number((await info.textContent())!.match(/weight ([0-9.e-]+)/)![1]);
  expect(weight).toBeGreaterThan(0);
  expect(weight).toBeLessThanOrEqual(1);
  // Masked cells read as blocked.
  await a.getByTestId('mask-causal').check();
  await page.keyboard.press('ArrowRight'); // focus moved to the checkbox: refocus the canvas
  await head(a).focus();
  await page.keyboard.press('ArrowRight');
  await expect(info).toContainText('query “animal” (1) → key “didn\'t” (2): blocked by the mask (weight 0)');
});

test('the URL round-trips every setting', async ({ page }) => {
  await open(page);
  // Model.
  await page.getByTestId('heads').selectOption('2');
  await page.getByTestId('d-model').fill('48');
  await page.getByTestId('d-model').press('Enter');
  await page.getByTestId('seed').fill('7');
  await page.getByTestId('seed').press('Enter');
  await page.getByTestId('layout').selectOption('split');
  await page.getByTestId('base').fill('1000');
  await page.getByTestId('base').press('Enter');
  await page.getByTestId('combine').selectOption('concat');
  await page.getByTestId('d-pos').fill('12');
  await page.getByTestId('d-pos').press('Enter');
  await page.getByTestId('embedding-scale').uncheck();
  await page.getByTestId('pad-to').fill('13');
  await page.getByTestId('pad-to').press('Enter');
  await page.getByTestId('sentence-input').fill('The cat sat on the mat because it was warm');
  // Variant A.
  const a = variant(page, 0);
  await a.getByTestId('score').selectOption('additive');
  await a.getByTestId('temperature-value').fill('0.37');
  await a.getByTestId('temperature-value').press('Enter');
  await a.getByTestId('mask-causal').check();
  await a.getByTestId('mask-window').check();
  await a.getByTestId('window-r').fill('3');
  await a.getByTestId('window-r').press('Enter');
  await a.getByTestId('mask-strided').check();
  await a.getByTestId('strided-s').fill('4');
  await a.getByTestId('strided-s').press('Enter');
  await a.getByTestId('mask-padding').check();
  await a.getByTestId('global-token').nth(2).click();
  await a.getByTestId('edit-custom').check();
  await activateCell(page, head(a), 4, 1);
  await expect(a.getByTestId('custom-count')).toHaveText('1');
  // Variant B, and a third variant with Linformer.
  const b = variant(page, 1);
  await b.getByTestId('attention').selectOption('taylor');
  await page.getByTestId('add-variant').click();
  const c = variant(page, 2);
  await c.getByTestId('attention').selectOption('linformer');
  await c.getByTestId('linformer-k').fill('5');
  await c.getByTestId('linformer-k').press('Enter');
  await c.getByTestId('variant-name').fill('Lin');
  await c.getByTestId('variant-name').press('Enter');
  await expect(c.getByTestId('score')).toBeDisabled(); // Linformer always scores q·k'/√d_k
  await page.getByTestId('compare-b').selectOption('2');
  await page.getByTestId('compare-what').selectOption('average');
  await expect(page.getByTestId('compare')).toContainText('cannot be compared cell by cell');

  // The link in the address bar follows the state (replaceState), and the copy box too.
  // (The address bar follows once the state rests for a moment.)
  const url = await page.getByTestId('share-link').inputValue();
  expect(url).toMatch(/#v1z?\./);
  await expect.poll(() => page.url()).toBe(url);
  await page.getByTestId('copy-link').click();
  await expect(page.getByTestId('copied')).not.toBeEmpty();

  // A fresh page opened with the link shows the same lab.
  const other = await page.context().newPage();
  const errors: string[] = [];
  other.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  other.on('pageerror', (e) => errors.push(e.message));
  await other.goto(url);
  await expect(other.getByTestId('variant')).toHaveCount(3);
  await expect(other.getByTestId('notice')).toHaveCount(0);
  await expect(other.getByTestId('sentence-input')).toHaveValue('The cat sat on the mat because it was warm');
  await expect(other.getByTestId('heads')).toHaveValue('2');
  await expect(other.getByTestId('d-model')).toHaveValue('48');
  await expect(other.getByTestId('seed')).toHaveValue('7');
  await expect(other.getByTestId('layout')).toHaveValue('split');
  await expect(other.getByTestId('base')).toHaveValue('1000');
  await expect(other.getByTestId('combine')).toHaveValue('concat');
  await expect(other.getByTestId('d-pos')).toHaveValue('12');
  await expect(other.getByTestId('embedding-scale')).not.toBeChecked();
  await expect(other.getByTestId('pad-to')).toHaveValue('13');
  const [oa, ob, oc] = [0, 1, 2].map((i) => other.getByTestId('variant').nth(i));
  await expect(oa.getByTestId('score')).toHaveValue('additive');
  await expect(oa.getByTestId('temperature-value')).toHaveValue('0.37');
  for (const id of ['mask-causal', 'mask-window', 'mask-strided', 'mask-padding']) {
    await expect(oa.getByTestId(id), id).toBeChecked();
  }
  await expect(oa.getByTestId('window-r')).toHaveValue('3');
  await expect(oa.getByTestId('strided-s')).toHaveValue('4');
  await expect(oa.getByTestId('global-token').nth(2)).toHaveAttribute('aria-pressed', 'true');
  await expect(oa.getByTestId('custom-count')).toHaveText('1');
  await expect(ob.getByTestId('attention')).toHaveValue('taylor');
  await expect(oc.getByTestId('attention')).toHaveValue('linformer');
  await expect(oc.getByTestId('linformer-k')).toHaveValue('5');
  await expect(oc.getByTestId('variant-name')).toHaveValue('Lin');
  await expect(other.getByTestId('compare-b')).toHaveValue('2');
  await expect(other.getByTestId('compare-what')).toHaveValue('average');
  expect(await other.getByTestId('share-link').inputValue()).toBe(url);
  // Same numbers, same pixels.
  await expect(head(oa)).toHaveAttribute('data-rendered-tokens', '13');
  expect(await pixels(head(oa))).toEqual(await pixels(head(a)));
  expect(errors).toEqual([]);
  await other.close();
});

test('a drag repaints only the values, to the pixels of a fresh page', async ({ page }) => {
  // While a slider moves, each canvas repaints its cells and entropy bars over its
  // unchanged labels and legend; the result must be the figure a fresh page draws.
  await open(page);
  const b = variant(page, 1);
  await b.getByTestId('mask-causal').check();
  for (const v of ['-1', '-0.5', '0.2', '0.7', '0.35']) {
    await b.getByTestId('temperature').fill(v);
  }
  await expect(b.getByTestId('temperature-value')).toHaveValue(/^2\.2/);
  await expect(page.getByTestId('share-link')).not.toHaveValue(/#v1\.e30$/);
  const url = await page.getByTestId('share-link').inputValue();
  const before = await allPixels(page);
  const other = await page.context().newPage();
  await open(other, url);
  await expect(difference(other)).toHaveAttribute('data-rendered-tokens', '11');
  await expect.poll(() => allPixels(other)).toEqual(before);
  await other.close();
});

test('a tampered URL opens the defaults with a notice, keeping readable text', async ({ page }) => {
  await page.goto('/#v1.this-is-not!!base64');
  await expect(page.getByTestId('notice')).toBeVisible();
  await expect(page.getByTestId('notice')).toContainText('damaged');
  await expect(page.getByTestId('sentence-input')).toHaveValue(DEFAULT_SENTENCE);
  await expect(page.getByTestId('variant')).toHaveCount(2);
  await expect(page.getByTestId('heatmap')).toHaveAttribute('data-rendered-tokens', '11');

  // A link whose settings were edited by hand: the defaults, with the link's text.
  const json = JSON.stringify({ t: 'Hello tampered world', d: 'sixty-four' });
  const payload = Buffer.from(json).toString('base64url');
  // Only the fragment changes: the app opens the new link itself (hashchange).
  await page.goto(`/#v1.${payload}`);
  await expect(page.getByTestId('notice')).toContainText('with the link\'s text');
  await expect(page.getByTestId('sentence-input')).toHaveValue('Hello tampered world');
  await expect(page.getByTestId('heatmap')).toHaveAttribute('data-rendered-tokens', '3');

  // Out-of-range values are repaired, and the notice says what changed.
  const repaired = Buffer.from(JSON.stringify({ h: 5 })).toString('base64url');
  await page.goto(`/#v1.${repaired}`);
  await expect(page.getByTestId('notice')).toContainText('5 heads do not divide');
  await expect(page.getByTestId('heads')).toHaveValue('4');
});

test('a link whose text holds a NUL and a lone surrogate keeps the rest of the text, with a notice', async ({ page }) => {
  // The raw bytes: NUL, and U+D800 as UTF-8 would write it (ED A0 80).
  const raw = Buffer.concat([
    Buffer.from('{"t":"Hello a'), Buffer.from([0x00]), Buffer.from('b'),
    Buffer.from([0xed, 0xa0, 0x80]), Buffer.from('c world","h":2}'),
  ]).toString('base64url');
  // The JSON escapes, the payload percent-escaped on the way.
  const escaped = [...Buffer.from('{"t":"Hello a\\u0000b\\ud800c world","h":2}').toString('base64url')]
    .map((c, i) => (i < 4 ? `%${c.charCodeAt(0).toString(16).toUpperCase()}` : c)).join('');
  for (const payload of [raw, escaped]) {
    await page.goto('/');
    await page.goto(`/#v1.${payload}`);
    await expect(page.getByTestId('sentence-input')).toHaveValue('Hello a\uFFFDb\uFFFDc world');
    await expect(page.getByTestId('notice')).toContainText('unreadable character');
    await expect(page.getByTestId('notice')).toContainText('control character');
    await expect(page.getByTestId('heads')).toHaveValue('2');
  }
});

test('a hashchange that arrives after the page read its link does not reopen the page', async ({ page }) => {
  // The fragment can change while the app starts: the app reads the new link, and the
  // browser's hashchange for it comes after. Reopening would lose the repair notice.
  // Here the event is sent as soon as the notice shows (before the address is written).
  await page.addInitScript(() => {
    const starts = Number(sessionStorage.getItem('starts') ?? '0') + 1;
    sessionStorage.setItem('starts', String(starts));
    const seen = new MutationObserver(() => {
      if (starts === 1 && document.querySelector('[data-testid="notice"]')) {
        seen.disconnect();
        window.dispatchEvent(new HashChangeEvent('hashchange'));
      }
    });
    seen.observe(document, { subtree: true, childList: true });
  });
  const payload = Buffer.from(JSON.stringify({ t: 'Hello late world', h: 5 })).toString('base64url');
  await page.goto(`/#v1.${payload}`);
  await expect(page.getByTestId('notice')).toContainText('5 heads do not divide');
  await expect(page.getByTestId('share-link')).toHaveValue(/#v1\./);
  // After the address was written, the same event is no new link either.
  await page.evaluate(() => window.dispatchEvent(new HashChangeEvent('hashchange')));
  await page.waitForTimeout(300);
  expect(await page.evaluate(() => sessionStorage.getItem('starts'))).toBe('1');
  await expect(page.getByTestId('notice')).toContainText('5 heads do not divide');
  await expect(page.getByTestId('sentence-input')).toHaveValue('Hello late world');
});

test('a link pasted into the address bar of an open page opens its state', async ({ page }) => {
  await open(page);
  await expect(page.getByTestId('heatmap')).toHaveAttribute('data-rendered-tokens', '11');
  const link = Buffer.from(JSON.stringify({ t: 'attention is all you need', u: 'lines' })).toString('base64url');
  // Only the fragment changes: no new page load unless the app makes one.
  await page.evaluate((hash) => { location.hash = hash; }, `v1.${link}`);
  await expect(page.getByTestId('sentence-input')).toHaveValue('attention is all you need');
  await expect(page.getByTestId('page-lines')).toHaveAttribute('aria-selected', 'true');
  // The app's own writes to the address bar (replaceState) never reload it.
  await page.getByTestId('page-lab').click();
  await page.getByTestId('sentence-input').fill('still typing here');
  await expect.poll(() => page.evaluate(() => location.hash)).not.toContain(link);
  await expect(page.getByTestId('sentence-input')).toHaveValue('still typing here');
});

test('cross-attention: target queries attend to source keys', async ({ page }) => {
  await open(page);
  await page.getByTestId('mode-cross').check();
  await expect(page.getByTestId('sentence-input')).toHaveValue('I love machine learning');
  await expect(page.getByTestId('source-input')).toHaveValue('我爱机器学习');
  await expect(page.getByTestId('source-token-strip').getByTestId('token')).toHaveCount(6);
  const a = variant(page, 0);
  await expect(head(a)).toHaveAttribute('data-rendered-tokens', '4');
  await expect(head(a)).toHaveAttribute('aria-label', /4 query tokens \(rows\) by 6 keys/);
  await head(a).focus();
  await page.keyboard.press('ArrowRight');
  await expect(a.getByTestId('cell-info').first()).toContainText('query “I” (0) → key “爱” (1): weight');
  const before = await pixels(head(a));
  // The address bar follows at most every 200 ms: reload only once it holds the new source.
  const hash = () => page.evaluate(() => location.hash);
  await expect.poll(hash).not.toBe('');
  const linkBefore = await hash();
  await page.getByTestId('source-input').fill('我爱学习');
  await changes(head(a), before, 'a new source');
  await expect(head(a)).toHaveAttribute('aria-label', /by 4 keys/);
  // The mode travels in the link too.
  await expect.poll(hash).not.toBe(linkBefore);
  await page.reload();
  await expect(page.getByTestId('mode-cross')).toBeChecked();
  await expect(page.getByTestId('source-input')).toHaveValue('我爱学习');
  await page.getByTestId('mode-self').check();
  await expect(page.getByTestId('source-input')).toHaveCount(0);
  await expect(page.getByTestId('sentence-input')).toHaveValue(DEFAULT_SENTENCE);
});

test('cross-attention has no causal mask: a switch turns it off with a notice, and the knob says why', async ({ page }) => {
  await open(page);
  const a = variant(page, 0);
  const causal = a.getByTestId('mask-causal');
  await causal.check();
  await expect(causal).toBeChecked();
  await page.getByTestId('mode-cross').check();
  await expect(page.getByTestId('notice')).toContainText(
    'Switched to cross-attention: variant A: the causal mask was turned off (in cross-attention a target position and a source position belong to two different sentences');
  await expect(causal).not.toBeChecked();
  await expect(causal).toBeDisabled();
  const why = a.locator('.knob', { has: page.getByTestId('mask-causal') }).getByTestId('why');
  await expect(why).toContainText("causal masking belongs to the decoder's self-attention, and cross-attention masks only the source's padding");
  // The first target word reads the last source character: nothing orders the two sentences.
  await expect(head(a)).toHaveAttribute('data-rendered-tokens', '4');
  await activateCell(page, head(a), 0, 5);
  await expect(a.getByTestId('cell-info').first()).toContainText('query “I” (0) → key “习” (5): weight');
  // Back in self-attention the mask can be chosen again; nothing else was turned off.
  await page.getByTestId('mode-self').check();
  await expect(causal).toBeEnabled();
  await expect(causal).not.toBeChecked();
});

test('a link that sets a causal mask in cross-attention is repaired with a notice', async ({ page }) => {
  const link = Buffer.from(JSON.stringify({ x: 'cross', v: [{ n: 'A', c: true }, { n: 'B' }] })).toString('base64url');
  await open(page, '/#v1.' + link);
  await expect(page.getByTestId('notice')).toContainText(
    'variant A: the causal mask was turned off (in cross-attention');
  await expect(page.getByTestId('mode-cross')).toBeChecked();
  await expect(variant(page, 0).getByTestId('mask-causal')).not.toBeChecked();
  await expect(variant(page, 0).getByTestId('mask-causal')).toBeDisabled();
});

test('above 512 tokens the page says so and draws the first 512', async ({ page }) => {
  await open(page);
  const text = Array.from({ length: 600 }, (_, i) => `w${i % 50}`).join(' ');
  await page.getByTestId('sentence-input').fill(text);
  await expect(page.getByTestId('notice')).toContainText('600 tokens');
  await expect(page.getByTestId('notice')).toContainText('first 512');
  await expect(page.getByTestId('heatmap')).toHaveAttribute('data-rendered-tokens', '512', { timeout: 30_000 });
  await expect(page.getByTestId('sentence-input')).toHaveValue(text);
});

test('a long sentence is computed a few heads per task: typing goes on, and the newest text is drawn as a fresh page draws it', async ({ page }) => {
  // 16 heads, d_model 512, 500 tokens: more than one task's work per variant, so each
  // keystroke's heads run over several tasks while the panel says it is busy.
  const words = ['the', 'cat', 'sat', 'on', 'a', 'warm', 'mat', 'and', 'watched', 'birds'];
  const text = Array.from({ length: 500 }, (_, i) => words[i % words.length]).join(' ');
  const link = Buffer.from(JSON.stringify({ t: text, d: 512, h: 16 })).toString('base64url');
  await page.goto('/#v1.' + link);
  for (const i of [0, 1]) {
    await expect(head(variant(page, i))).toHaveAttribute('data-rendered-tokens', '500', { timeout: 30_000 });
  }
  await expect(variant(page, 0)).toHaveAttribute('aria-busy', 'false');
  await page.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { busySeen: string[] }).busySeen = seen;
    new MutationObserver((records) => {
      for (const r of records) seen.push((r.target as Element).getAttribute('aria-busy') ?? '');
    }).observe(document.body, { subtree: true, attributes: true, attributeFilter: ['aria-busy'] });
  });
  const box = page.getByTestId('sentence-input');
  await box.focus();
  await page.keyboard.press('End');
  await page.keyboard.type(' fly past');
  await expect(box).toHaveValue(text + ' fly past');
  for (const i of [0, 1]) {
    await expect(head(variant(page, i))).toHaveAttribute('data-rendered-tokens', '502', { timeout: 30_000 });
    await expect(variant(page, i)).toHaveAttribute('aria-busy', 'false');
  }
  await expect(difference(page)).toHaveAttribute('data-rendered-tokens', '502');
  const seen = await page.evaluate(() => (window as unknown as { busySeen: string[] }).busySeen);
  expect(seen, 'a panel was busy while its heads were computed').toContain('true');
  expect(seen.at(-1)).toBe('false');

  // The heads computed a few per task, with requests overtaken by newer keystrokes, draw
  // what a fresh page computing the same link at once draws: each variant's head and
  // average, and the difference. (The grids are left out: a 4 × 4 grid wider than its
  // panel keeps a stray edge of an earlier frame, typed or not.)
  const url = await page.getByTestId('share-link').inputValue();
  const figures = (p: Page) =>
    p.locator('canvas[data-figure=head], canvas[data-figure=average], canvas[data-figure=difference]')
      .evaluateAll((cs) => cs.map((c) => (c as HTMLCanvasElement).toDataURL('image/png')));
  const before = await figures(page);
  expect(before.length).toBe(5);
  for (const v of [0, 1]) await expect(grid(variant(page, v))).toHaveAttribute('data-rendered-tokens', '502');
  const other = await page.context().newPage();
  await other.goto(url);
  await expect(difference(other)).toHaveAttribute('data-rendered-tokens', '502', { timeout: 30_000 });
  const same = async () => {
    const now = await figures(other);
    return now.map((p, i) => (p === before[i] ? 'same' : `figure ${i} differs`));
  };
  await expect.poll(same, { timeout: 20_000 }).toEqual(before.map(() => 'same'));
  await other.close();
});

test('the sidebar holds every control at laptop widths, in both languages', async ({ page }) => {
  for (const width of [1100, 1280, 1366]) {
    await page.setViewportSize({ width, height: 768 });
    for (const lang of ['en', 'zh']) {
      await page.goto('about:blank');
      await page.goto(`/#v1.e30&lang=${lang}`);
      await expect(page.getByTestId('heatmap')).toHaveAttribute('data-rendered-tokens', '11');
      const spill = await page.evaluate(() => {
        const side = document.querySelector('.lab-side')!.getBoundingClientRect();
        const out: string[] = [];
        for (const e of document.querySelectorAll('.lab-side *')) {
          const r = e.getBoundingClientRect();
          if (r.width > 0 && r.right > side.right + 0.5) out.push(`${e.tagName}.${e.className} ends at ${r.right} > ${side.right}`);
        }
        return out;
      });
      expect(spill, `${width} px, ${lang}`).toEqual([]);
    }
  }
});

for (const [w, h] of [[1280, 800], [1920, 1080]] as const) {
  test(`screenshot at ${w}×${h}`, async ({ page }) => {
    await page.setViewportSize({ width: w, height: h });
    await open(page);
    const b = variant(page, 1);
    await b.getByTestId('mask-causal').check();
    await expect(head(b)).toHaveAttribute('data-rendered-tokens', '11');
    const box = (await head(variant(page, 0)).boundingBox())!;
    await head(variant(page, 0)).hover({ position: { x: box.width * 0.4, y: box.height * 0.55 } });
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.waitForTimeout(200);
    await page.screenshot({ path: `/tmp/lab-${w}.png` });
    await page.screenshot({ path: `/tmp/lab-${w}-full.png`, fullPage: true });
  });
}

test('with four variants, the two chosen to be side by side fill the first row, and the pair is in the link', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await open(page);
  await expect(page.getByTestId('side-by-side')).toHaveCount(0);
  await page.getByTestId('add-variant').click();
  await page.getByTestId('add-variant').click();
  await expect(page.getByTestId('variant')).toHaveCount(4);
  const bar = page.getByTestId('side-by-side');
  await expect(bar).toBeVisible();
  // One line on the variants' bar: a label and two short menus.
  const barBox = (await bar.boundingBox())!;
  expect(barBox.height).toBeLessThan(56);
  expect(barBox.width).toBeLessThan(400);
  // The first row shows the compared pair: A and B by default.
  const top = async (i: number) => (await variant(page, i).boundingBox())!.y;
  expect(Math.abs((await top(0)) - (await top(1)))).toBeLessThan(2);
  expect(await top(2)).toBeGreaterThan((await top(0)) + 100);
  // C and D side by side: they move to the first row, A and B below; the difference is C − D.
  await bar.getByTestId('side-a').selectOption('2');
  await bar.getByTestId('side-b').selectOption('3');
  await expect(page.getByTestId('compare-a')).toHaveValue('2');
  await expect(page.getByTestId('compare-b')).toHaveValue('3');
  await expect(difference(page)).toHaveAttribute('aria-label', /^C − D/);
  expect(Math.abs((await top(2)) - (await top(3)))).toBeLessThan(2);
  expect(await top(0)).toBeGreaterThan((await top(2)) + 100);
  const viewport = page.viewportSize()!;
  for (const i of [2, 3]) {
    const box = (await head(variant(page, i)).boundingBox())!;
    expect(box.y, `variant ${i}'s heatmap starts in the first screen`).toBeLessThan(viewport.height);
  }
  // The link keeps the pair.
  await page.waitForTimeout(400);
  const other = await page.context().newPage();
  await other.setViewportSize({ width: 1440, height: 900 });
  await other.goto(await page.getByTestId('share-link').inputValue());
  await expect(other.getByTestId('side-a')).toHaveValue('2');
  await expect(other.getByTestId('side-b')).toHaveValue('3');
  await other.close();
});

test('a head title names what sets its variant apart before the model every variant shares', async ({ page }) => {
  await open(page);
  const b = variant(page, 1);
  await b.getByTestId('mask-causal').check();
  await b.getByTestId('temperature-value').fill('0.5');
  await b.getByTestId('temperature-value').press('Enter');
  await expect(head(b)).toHaveAttribute('aria-label', /^B · dot-product softmax · τ 0\.5 · causal · Head 0 · 4 heads · d_model 64/);
  await expect(head(variant(page, 0))).toHaveAttribute('aria-label', /^A · scaled dot-product softmax · Head 0 · 4 heads/);
});
