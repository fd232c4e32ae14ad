import { type Locator, type Page } from '@playwright/test';
import { expect, test } from './fixtures';

// Issue 33 in the lab: each new kind and option is a knob of variant B, beside
// softmax A; B's figure and the difference are drawn; knobs a kind does not take are
// disabled with their reason.
//
// DOM contract (src/lab/variant_options.rs, variant_controls.rs):
//   [data-testid=options-positions]  rope (checkbox), rope-base, rope-pairs, rope-dims,
//                                    rope-scaling, rope-factor, rope-original, alibi
//   [data-testid=options-logits]     softcap, softcap-c, sinks, sinks-s, tiles, tiles-b,
//                                    kv-groups (select of the divisors of the heads)
//   [data-testid=options-kind]       sigmoid-bias-default, sigmoid-bias, lambda, decay,
//                                    sink-logit, features (only with their kind)

const variant = (page: Page, i: number) => page.getByTestId('variant').nth(i);
const head = (v: Locator) => v.locator('canvas[data-figure=head]');
const difference = (page: Page) => page.locator('canvas[data-figure=difference]');
const pixels = (canvas: Locator) =>
  canvas.evaluate((c) => (c as HTMLCanvasElement).toDataURL('image/png'));

async function open(page: Page) {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/');
  await expect(head(variant(page, 0))).toHaveAttribute('data-rendered-tokens', /^[1-9]/);
  await expect(head(variant(page, 1))).toHaveAttribute('data-rendered-tokens', /^[1-9]/);
  // B is plain dot-product softmax by default: make it A's twin, so that each step
  // below changes B by one knob only.
  await variant(page, 1).getByTestId('score').selectOption('scaled_dot');
}

/** Runs `act` on B and waits until B's head and the difference are drawn anew. */
async function redraws(page: Page, what: string, act: (b: Locator) => Promise<void>) {
  const b = variant(page, 1);
  const [before, diff] = [await pixels(head(b)), await pixels(difference(page))];
  await act(b);
  await expect.poll(() => pixels(head(b)), { message: `${what}: B's figure` }).not.toEqual(before);
  await expect.poll(() => pixels(difference(page)), { message: `${what}: the difference` }).not.toEqual(diff);
  await expect(b.getByTestId('variant-error')).toHaveCount(0);
  await expect(head(b)).toHaveAttribute('data-rendered-tokens', /^[1-9]/);
}

test('each new kind in variant B beside softmax A draws B and the difference', async ({ page }) => {
  await open(page);
  const b = variant(page, 1);
  for (const kind of ['softmax_plus_one', 'sigmoid', 'softpick', 'sink', 'differential', 'favor', 'decayed_linear']) {
    await redraws(page, kind, (v) => v.getByTestId('attention').selectOption(kind));
    await expect(b.getByTestId('attention')).toHaveValue(kind);
    await b.getByTestId('attention').selectOption('softmax');
    await expect(b.getByTestId('attention')).toHaveValue('softmax');
  }
});

test('each kind shows its own parameter, and a changed one redraws B', async ({ page }) => {
  await open(page);
  const b = variant(page, 1);
  await expect(b.getByTestId('options-kind')).toHaveCount(0);
  const cases: [string, string, string][] = [
    ['sigmoid', 'sigmoid-bias', '-1'],
    ['differential', 'lambda', '0.3'],
    ['decayed_linear', 'decay', '0.5'],
    ['sink', 'sink-logit', '3'],
    ['favor', 'features', '8'],
  ];
  for (const [kind, knob, value] of cases) {
    await b.getByTestId('attention').selectOption(kind);
    await expect(b.getByTestId('options-kind')).toBeVisible();
    if (kind === 'sigmoid') await b.getByTestId('sigmoid-bias-default').uncheck();
    await redraws(page, `${kind} ${knob}`, (v) => v.getByTestId(knob).fill(value).then(() => v.getByTestId(knob).press('Enter')));
    await b.getByTestId('attention').selectOption('softmax');
  }
});

test('RoPE, its pairs, dims and scalings, and ALiBi redraw B', async ({ page }) => {
  await open(page);
  const b = variant(page, 1);
  await redraws(page, 'RoPE', (v) => v.getByTestId('rope').check());
  await redraws(page, 'interleaved pairs', (v) => v.getByTestId('rope-pairs').selectOption('interleaved'));
  await redraws(page, 'rotary dims', async (v) => {
    await v.getByTestId('rope-dims').fill('4');
    await v.getByTestId('rope-dims').press('Enter');
  });
  await redraws(page, 'base', async (v) => {
    await v.getByTestId('rope-base').fill('10');
    await v.getByTestId('rope-base').press('Enter');
  });
  await expect(b.getByTestId('rope-factor')).toHaveCount(0);
  await redraws(page, 'linear scaling', (v) => v.getByTestId('rope-scaling').selectOption('linear'));
  await redraws(page, 'NTK scaling', (v) => v.getByTestId('rope-scaling').selectOption('ntk'));
  await redraws(page, 'YaRN scaling', (v) => v.getByTestId('rope-scaling').selectOption('yarn'));
  await expect(b.getByTestId('rope-original')).toBeVisible();
  await redraws(page, 'factor', async (v) => {
    await v.getByTestId('rope-factor').fill('8');
    await v.getByTestId('rope-factor').press('Enter');
  });
  await b.getByTestId('rope').uncheck();
  await redraws(page, 'ALiBi', (v) => v.getByTestId('alibi').check());
});

test('softcap, sinks, tiles and key/value groups are knobs of B', async ({ page }) => {
  await open(page);
  const b = variant(page, 1);
  await redraws(page, 'softcap', async (v) => {
    await v.getByTestId('softcap').check();
    await v.getByTestId('softcap-c').fill('0.5');
    await v.getByTestId('softcap-c').press('Enter');
  });
  await b.getByTestId('softcap').uncheck();
  // Sinks open the first keys of a window: with the window, B's first column comes back.
  await b.getByTestId('mask-window').check();
  await redraws(page, 'sinks', (v) => v.getByTestId('sinks').check());
  await b.getByTestId('sinks').uncheck();
  await b.getByTestId('mask-window').uncheck();
  // Grouped-query and multi-query attention: 4 heads, so 4, 2 or 1 groups.
  await expect(b.locator('select[data-testid=kv-groups] option')).toHaveCount(3);
  await redraws(page, 'grouped-query', (v) => v.getByTestId('kv-groups').selectOption('2'));
  await redraws(page, 'multi-query', (v) => v.getByTestId('kv-groups').selectOption('1'));
  await b.getByTestId('kv-groups').selectOption('4');
  // Tiles give the same numbers as one pass: B's figure stays A's twin, so the
  // difference stays all zero.
  await b.getByTestId('tiles').check();
  await expect(b.getByTestId('tiles-b')).toHaveValue('4');
  await expect(page.getByTestId('max-abs')).toHaveText(/^0\.0000$/);
});

test('options a kind does not take are disabled with their reason', async ({ page }) => {
  await open(page);
  const b = variant(page, 1);
  await b.getByTestId('attention').selectOption('elu1');
  for (const knob of ['alibi', 'softcap', 'tiles']) {
    await expect(b.getByTestId(knob)).toBeDisabled();
    const why = await b.getByTestId(knob).getAttribute('aria-describedby');
    await expect(page.locator(`[id="${why}"]`)).not.toBeEmpty();
  }
  const alibiWhy = await b.getByTestId('alibi').getAttribute('aria-describedby');
  await expect(page.locator(`[id="${alibiWhy}"]`)).toContainText('has no logits to bias or cap');
  const tilesWhy = await b.getByTestId('tiles').getAttribute('aria-describedby');
  await expect(page.locator(`[id="${tilesWhy}"]`)).toContainText(/only softmax attention is computed tile by tile/i);
  // A softcap on refuses the kinds without logits, saying which option to turn off.
  await b.getByTestId('attention').selectOption('softmax');
  await b.getByTestId('softcap').check();
  await expect(b.locator('select[data-testid=attention] option[value=favor]')).toBeDisabled();
  await expect(b.locator('select[data-testid=attention] option[value=favor]')).toHaveAttribute(
    'title',
    /softcap that is on \(turn it off first\)/,
  );
  await b.getByTestId('softcap').uncheck();
  // Decayed linear attention scores with the dot products only.
  await b.getByTestId('score').selectOption('additive');
  await expect(b.locator('select[data-testid=attention] option[value=decayed_linear]')).toBeDisabled();
  await b.getByTestId('score').selectOption('dot');
  await b.getByTestId('attention').selectOption('decayed_linear');
  await expect(b.locator('select[data-testid=score] option[value=cosine]')).toBeDisabled();
});

test('negative weights read their row sums, and the lab at a projector', async ({ page }) => {
  await open(page);
  const b = variant(page, 1);
  await b.getByTestId('rope').check();
  await expect(head(b)).toHaveAttribute('data-rendered-tokens', /^[1-9]/);
  await page.screenshot({ path: '/tmp/modern-rope.png' });
  await b.getByTestId('rope').uncheck();
  await b.getByTestId('attention').selectOption('differential');
  await expect(head(b)).toHaveAttribute('data-rendered-tokens', /^[1-9]/);
  // KL and JS compare distributions: a dash, with the reason, for differential rows.
  await expect(page.getByTestId('mean-kl')).toHaveText('—');
  await expect(page.getByTestId('mean-kl')).toHaveAttribute('title', /not defined/);
  await head(b).focus();
  await page.keyboard.press('ArrowRight');
  await expect(b.getByTestId('cell-info').first()).toContainText('this row sums to');
  await page.screenshot({ path: '/tmp/modern-differential.png' });
  await b.getByTestId('attention').selectOption('softmax');
  await b.getByTestId('kv-groups').selectOption('1');
  await expect(head(b)).toHaveAttribute('data-rendered-tokens', /^[1-9]/);
  await page.screenshot({ path: '/tmp/modern-gqa.png' });
});

test('the options travel in the link', async ({ page }) => {
  await open(page);
  const b = variant(page, 1);
  await b.getByTestId('attention').selectOption('sigmoid');
  await b.getByTestId('rope').check();
  await b.getByTestId('rope-scaling').selectOption('yarn');
  await b.getByTestId('kv-groups').selectOption('2');
  await expect.poll(() => page.url()).toContain('#v1');
  await page.reload();
  const again = variant(page, 1);
  await expect(again.getByTestId('attention')).toHaveValue('sigmoid');
  await expect(again.getByTestId('rope')).toBeChecked();
  await expect(again.getByTestId('rope-scaling')).toHaveValue('yarn');
  await expect(again.getByTestId('kv-groups')).toHaveValue('2');
});

test('the weight on the first token, per variant and head: a window takes it away, sinks give it back', async ({ page }) => {
  await open(page);
  const panel = page.getByTestId('first-token');
  // A disclosure, closed at first: nothing is computed or painted until it is opened.
  await expect(panel.getByTestId('first-token-heatmap')).toHaveCount(0);
  await panel.getByTestId('first-token-open').click();
  const canvas = panel.getByTestId('first-token-heatmap');
  await expect(canvas).toHaveAttribute('data-rows', '2');
  await expect(canvas).toHaveAttribute('data-cols', '4');
  await panel.getByTestId('first-token-heatmap-values').locator('summary').click();
  const row = (i: number) =>
    panel.getByTestId('first-token-heatmap-values-table').locator('tbody tr').nth(i).locator('td').allTextContents();
  const mean = async (i: number) => {
    const cells = (await row(i)).map(Number);
    expect(cells.every((c) => Number.isFinite(c) && c >= 0 && c <= 1), cells.join(' ')).toBe(true);
    return cells.reduce((a, b) => a + b, 0) / cells.length;
  };
  const b = variant(page, 1);
  const open_ = await mean(1);
  await b.getByTestId('mask-window').check();
  await expect.poll(() => mean(1), { message: 'a window closes the first key to the far queries' }).toBeLessThan(open_ - 0.02);
  const windowed = await mean(1);
  await b.getByTestId('sinks').check();
  await expect.poll(() => mean(1), { message: 'a sink opens it again' }).toBeGreaterThan(windowed + 0.05);
  // Softmax + 1 spends less than a whole row: less on the first token than softmax.
  await b.getByTestId('sinks').uncheck();
  await b.getByTestId('mask-window').uncheck();
  await expect.poll(() => mean(1)).toBeCloseTo(open_, 5);
  await b.getByTestId('attention').selectOption('softmax_plus_one');
  await expect.poll(() => mean(1)).toBeLessThan(open_);
});

test('grouped keys and values: which heads share them, and the cache per token', async ({ page }) => {
  await open(page);
  const b = variant(page, 1);
  await expect(b.getByTestId('kv-groups-figure')).toHaveCount(0);
  await b.getByTestId('kv-groups').selectOption('2');
  const groups = b.getByTestId('kv-group');
  await expect(groups).toHaveCount(2);
  await expect(groups.nth(0)).toHaveText(/head 0\s*head 1\s*→\s*K, V 0/);
  await expect(groups.nth(1)).toHaveText(/head 2\s*head 3\s*→\s*K, V 1/);
  // 4 heads of width 16, f32: 2·4·16·4 = 512 B per token and layer for multi-head.
  await expect(b.getByTestId('kv-cache')).toHaveText(
    "Keys and values a decoder caches per token and layer (f32): this variant 256 B, 1/2 of multi-head's 512 B; multi-query 128 B.",
  );
  await b.getByTestId('kv-groups').selectOption('1');
  await expect(groups).toHaveCount(1);
  await expect(groups.nth(0)).toHaveAttribute('data-heads', '4');
  await expect(b.getByTestId('kv-cache')).toContainText('this variant 128 B, 1/4 of');
  await b.getByTestId('kv-groups').selectOption('4');
  await expect(b.getByTestId('kv-groups-figure')).toHaveCount(0);
});
