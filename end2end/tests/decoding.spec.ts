import { type Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { englishLeft } from './english';

// The Decoding page's KV-cache calculator (src/pages/decoding/, attnlab_pages::decoding).
//
// DOM contract:
//   [data-testid=page-decoding]          the tab
//   select[data-testid=kv-preset]        llama-3-8b | llama-2-7b | mistral-7b | falcon-7b | deepseek-v2 | custom
//   input[data-testid=kv-layers|kv-query-heads|kv-kv-heads|kv-head-dim|kv-context|kv-batch]
//   input[data-testid=kv-latent]         the latent cache (MLA) on/off
//   [data-testid=kv-kind]                data-kind = MHA | GQA | MQA | MLA
//   [data-testid=kv-per-token]           data-bytes = exact bytes per token; its value in KiB/MiB/GiB
//   [data-testid=kv-totals]              data-bytes = exact bytes for T tokens × batch
//   [data-testid=kv-note]                what was clamped or refused (data-count)
//   [data-testid=kv-sources]             the presets of this shape, each with its source
//   canvas[data-testid=kv-chart]         data-series = curves drawn, data-legend their names

async function openDecoding(page: Page) {
  await page.goto('/');
  await expect(page.getByTestId('token-strip').getByTestId('token')).toHaveCount(11);
  await page.getByTestId('page-decoding').click();
  await expect(page.getByTestId('decoding-view')).toBeVisible();
}

const perToken = (page: Page) => page.getByTestId('kv-per-token');

async function type(page: Page, testid: string, value: string) {
  await page.getByTestId(testid).fill(value);
  await page.getByTestId(testid).press('Enter');
}

test('the Llama 3 8B preset keeps 128 KiB per token at fp16, with its source and formula', async ({ page }) => {
  await openDecoding(page);
  // Another preset first, so picking Llama 3 8B changes what is shown.
  await page.getByTestId('kv-preset').selectOption('llama-2-7b');
  await expect(perToken(page)).toHaveAttribute('data-bytes', '524288');
  await expect(perToken(page)).toContainText('512 KiB');
  await expect(page.getByTestId('kv-kind')).toHaveAttribute('data-kind', 'MHA');
  await page.getByTestId('kv-preset').selectOption('llama-3-8b');
  await expect(perToken(page)).toHaveAttribute('data-bytes', '131072');
  await expect(perToken(page)).toContainText('128 KiB');
  await expect(page.getByTestId('kv-per-token-formula')).toContainText('32 × 2 × 8 × 128 × 2 B = 131,072 B = 128 KiB');
  await expect(page.getByTestId('kv-kind')).toHaveAttribute('data-kind', 'GQA');
  await expect(page.getByTestId('kv-source-llama-3-8b')).toContainText('config.json of Meta-Llama-3-8B');
  await expect(page.getByTestId('kv-source-llama-3-8b')).toContainText('num_key_value_heads = 8');
  // 8,192 tokens × 128 KiB = 1 GiB.
  await expect(page.getByTestId('kv-totals')).toHaveAttribute('data-bytes', '1073741824');
  await expect(page.getByTestId('kv-total')).toHaveText('1 GiB');
  await expect(page.getByTestId('kv-preset')).toHaveValue('llama-3-8b');
});

test('changing G changes the bytes per token and the name of the attention', async ({ page }) => {
  await openDecoding(page);
  await expect(perToken(page)).toHaveAttribute('data-bytes', '131072');
  await type(page, 'kv-kv-heads', '32');
  await expect(perToken(page)).toHaveAttribute('data-bytes', '524288');
  await expect(page.getByTestId('kv-kind')).toHaveAttribute('data-kind', 'MHA');
  await type(page, 'kv-kv-heads', '1');
  await expect(perToken(page)).toHaveAttribute('data-bytes', '16384');
  await expect(perToken(page)).toContainText('16 KiB');
  await expect(page.getByTestId('kv-kind')).toHaveAttribute('data-kind', 'MQA');
  await type(page, 'kv-kv-heads', '4');
  await expect(perToken(page)).toHaveAttribute('data-bytes', '65536');
  await expect(page.getByTestId('kv-kind')).toHaveAttribute('data-kind', 'GQA');
  // No preset has this shape: the picker says so and no source is shown.
  await expect(page.getByTestId('kv-preset')).toHaveValue('custom');
  await expect(page.getByTestId('kv-sources')).toHaveCount(0);
  // int4 halves it twice.
  await page.getByTestId('kv-bits').selectOption('4');
  await expect(perToken(page)).toHaveAttribute('data-bytes', '16384');
});

test("DeepSeek-V2's latent cache (MLA): (512 + 64) × 60 × 2 B per token", async ({ page }) => {
  await openDecoding(page);
  await page.getByTestId('kv-preset').selectOption('deepseek-v2');
  await expect(perToken(page)).toHaveAttribute('data-bytes', String((512 + 64) * 60 * 2));
  await expect(perToken(page)).toContainText('67.5 KiB');
  await expect(page.getByTestId('kv-per-token-formula')).toContainText('60 × (512 + 64) × 2 B = 69,120 B');
  await expect(page.getByTestId('kv-kind')).toHaveAttribute('data-kind', 'MLA');
  await expect(page.getByTestId('kv-latent')).toBeChecked();
  await expect(page.getByTestId('kv-latent-width')).toHaveValue('512');
  await expect(page.getByTestId('kv-source-deepseek-v2')).toContainText('d_c = 512');
  // Its chart compares MLA with MHA, GQA and MQA of the same 128 heads of 128.
  const chart = page.getByTestId('kv-chart');
  await expect(chart).toHaveAttribute('data-series', '4');
  await expect(chart).toHaveAttribute('data-legend', 'MLA, d_c + d_r = 576 (this setting) | MHA, G = 128 | GQA, G = 8 | MQA, G = 1');
  // Without the latent, the same shape is multi-head: 60 × 2 × 128 × 128 × 2 B.
  await page.getByTestId('kv-latent').uncheck();
  await expect(perToken(page)).toHaveAttribute('data-bytes', String(60 * 2 * 128 * 128 * 2));
});

test('the chart draws the cache against T for this setting and its MHA and MQA', async ({ page }) => {
  await openDecoding(page);
  const chart = page.getByTestId('kv-chart');
  await expect(chart).toHaveAttribute('data-series', '3');
  await expect(chart).toHaveAttribute('data-legend', 'GQA, G = 8 (this setting) | MHA, G = 32 | MQA, G = 1');
  await expect(chart).toHaveAttribute('aria-label', /KV cache \(GiB\)/);
  const box = await chart.boundingBox();
  expect(box!.width).toBeGreaterThan(300);
  expect(box!.height).toBeGreaterThan(250);
  // The canvas holds drawn pixels of more than one colour.
  const colours = await chart.evaluate((c: HTMLCanvasElement) => {
    const d = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
    const seen = new Set<string>();
    for (let i = 0; i < d.length; i += 4 * 97) seen.add(`${d[i]},${d[i + 1]},${d[i + 2]}`);
    return seen.size;
  });
  expect(colours).toBeGreaterThan(3);
  // A context of 4,096 halves the whole.
  await type(page, 'kv-context', '4096');
  await expect(page.getByTestId('kv-total')).toHaveText('512 MiB');
  await expect(chart).toHaveAttribute('aria-label', /KV cache \(GiB\)/); // MHA: 2 GiB
});

test('bad values are clamped with a note, never NaN; a link keeps the settings', async ({ page }) => {
  await openDecoding(page);
  await type(page, 'kv-layers', '0');
  await expect(page.getByTestId('kv-note')).toHaveText('layers L: 0 is outside 1 … 512; set to 1.');
  await expect(page.getByTestId('kv-layers')).toHaveValue('1');
  await expect(perToken(page)).toHaveAttribute('data-bytes', String(1 * 2 * 8 * 128 * 2));
  await type(page, 'kv-context', '-5');
  await expect(page.getByTestId('kv-note')).toContainText('context length T (tokens): -5 is outside 1 … 10,000,000; set to 1.');
  await type(page, 'kv-context', '99999999999');
  await expect(page.getByTestId('kv-context')).toHaveValue('10000000');
  await type(page, 'kv-kv-heads', '40');
  await expect(page.getByTestId('kv-note')).toContainText('G is set to 32');
  await expect(page.getByTestId('kv-kind')).toHaveAttribute('data-kind', 'MHA');
  await expect(page.getByTestId('decoding-view')).not.toContainText('NaN');
  await expect(page.getByTestId('decoding-view')).not.toContainText('Infinity');
  // The settings travel in the link: a new page opened on it shows them.
  await type(page, 'kv-kv-heads', '4');
  await type(page, 'kv-layers', '48');
  let url = '';
  await expect
    .poll(async () => {
      url = page.url();
      const hash = (url.split('#')[1] ?? '').split('&')[0];
      const json = hash.startsWith('v1.') ? atob(hash.slice(3).replace(/-/g, '+').replace(/_/g, '/')) : '';
      return json.includes('"kv"') && json.includes('"l":48') && json.includes('"g":4');
    })
    .toBe(true);
  const other = await page.context().newPage();
  await other.goto(url);
  await expect(other.getByTestId('decoding-view')).toBeVisible();
  await expect(other.getByTestId('kv-layers')).toHaveValue('48');
  await expect(other.getByTestId('kv-kv-heads')).toHaveValue('4');
  await expect(other.getByTestId('kv-per-token')).toHaveAttribute('data-bytes', String(48 * 2 * 4 * 128 * 2));
});

// The decoder stepper ("Decoding step by step", src/pages/decoding/stepper*.rs,
// attnlab_pages::decoding::stepper): the Block page's stack with causal self-attention,
// decoded one position at a time with its KV cache.
//
// DOM contract:
//   [data-testid=decoding-stepper]              data-mode = self | cross
//   button decoding-stepper-first|prev|next|last, input[type=range] decoding-stepper-t,
//   output decoding-stepper-t-value, select decoding-stepper-layer|head
//   [data-testid=decoding-stepper-step]         data-t: the step shown
//   canvas decoding-stepper-weights             n × n; its outlined row stepper-weights-row-highlight
//   canvas decoding-stepper-keys|values         (t + 1) × d_k once painted; outlined row stepper-keys-row-highlight
//   canvas decoding-stepper-memory-keys|values  cross mode: m × d_k
//   [data-testid=decoding-stepper-cache]        data-rows = t + 1, data-entries, data-bytes (the whole cache)
//   tr decoding-stepper-work-cells|macs         data-cached, data-recomputed (this step)
//   [data-testid=decoding-stepper-equality]     data-shown = true at the last step only
//   [data-testid=decoding-stepper-diff-output|diff-weights]  data-value: max |decode − parallel|
//   [data-testid=decoding-stepper-verdict]      data-equal

const stepper = (page: Page) => page.getByTestId('decoding-stepper');

/** The top of an outlined row, in CSS pixels (from its style). */
async function top(page: Page, testid: string): Promise<number> {
  const style = (await page.getByTestId(testid).getAttribute('style')) ?? '';
  const m = /top:\s*([\d.]+)px/.exec(style);
  return m ? Number(m[1]) : NaN;
}

test('the stepper decodes the sentence step by step: the new row outlined, the cache grows, the work, and the equality at the last step', async ({ page }) => {
  await openDecoding(page);
  await expect(stepper(page)).toHaveAttribute('data-mode', 'self');
  await expect(page.getByTestId('decoding-stepper-model')).toContainText('causal self-attention in every layer');
  await expect(page.getByTestId('decoding-stepper-settings')).toContainText('2 layers, d = 64, 4 heads of d_k = 16, f = 256, 11 positions');
  await expect(page.getByTestId('decoding-stepper-t-value')).toHaveText('0');
  await expect(page.getByTestId('decoding-stepper-weights')).toHaveAttribute('data-rows', '11');
  await expect(page.getByTestId('decoding-stepper-equality-later')).toContainText('At the last step (t = 10)');
  await expect(page.getByTestId('decoding-stepper-verdict')).toHaveCount(0);
  let was = -1;
  for (let t = 0; t < 11; t++) {
    if (t > 0) await page.getByTestId('decoding-stepper-next').click();
    await expect(page.getByTestId('decoding-stepper-step')).toHaveAttribute('data-t', String(t));
    await expect(page.getByTestId('decoding-stepper-t-value')).toHaveText(String(t));
    // The cache holds t + 1 rows: the K and V canvases are (t + 1) × d_k.
    await expect(page.getByTestId('decoding-stepper-cache')).toHaveAttribute('data-rows', String(t + 1));
    await expect(page.getByTestId('decoding-stepper-keys')).toHaveAttribute('data-rows', String(t + 1));
    await expect(page.getByTestId('decoding-stepper-values')).toHaveAttribute('data-cols', '16');
    // Whole cache: 2 layers × 2 (K and V) × (t + 1) rows of 64 floats.
    await expect(page.getByTestId('decoding-stepper-cache')).toHaveAttribute('data-entries', String(4 * (t + 1)));
    await expect(page.getByTestId('decoding-stepper-cache')).toHaveAttribute('data-bytes', String(4 * (t + 1) * 64 * 4));
    // The work: L·H·(t + 1) cells against L·H·(t + 1)².
    const cells = page.getByTestId('decoding-stepper-work-cells');
    await expect(cells).toHaveAttribute('data-cached', String(8 * (t + 1)));
    await expect(cells).toHaveAttribute('data-recomputed', String(8 * (t + 1) ** 2));
    const macs = page.getByTestId('decoding-stepper-work-macs');
    await expect(macs).toHaveAttribute('data-cached', String(2 * (4 * 64 * 64 + 2 * 64 * 256 + 2 * (t + 1) * 64)));
    // The new query row, outlined, moves down.
    await expect.poll(() => top(page, 'stepper-weights-row-highlight')).toBeGreaterThan(was);
    was = await top(page, 'stepper-weights-row-highlight');
    await expect.poll(() => top(page, 'stepper-keys-row-highlight')).toBeGreaterThanOrEqual(0);
    if (t < 10) await expect(page.getByTestId('decoding-stepper-equality')).toHaveAttribute('data-shown', 'false');
  }
  await expect(page.getByTestId('decoding-stepper-next')).toBeDisabled();
  await expect(page.getByTestId('decoding-stepper-work-cells')).toContainText('L·H·(t+1)² = 2·4·11² = 968');
  // The last step: decode against the parallel masked pass, computed.
  await expect(page.getByTestId('decoding-stepper-equality')).toHaveAttribute('data-shown', 'true');
  const diff = Number(await page.getByTestId('decoding-stepper-diff-output').getAttribute('data-value'));
  expect(Number.isFinite(diff) && diff >= 0 && diff < 1e-5, `max |Δ| = ${diff}`).toBe(true);
  const weights = Number(await page.getByTestId('decoding-stepper-diff-weights').getAttribute('data-value'));
  expect(Number.isFinite(weights) && weights < 1e-5, `weights ${weights}`).toBe(true);
  await expect(page.getByTestId('decoding-stepper-verdict')).toHaveAttribute('data-equal', 'true');
  await expect(page.getByTestId('decoding-stepper-verdict')).toHaveText('equal up to rounding');
  await expect(page.getByTestId('decoding-stepper-bound')).toContainText('10⁻⁵');
  await expect(page.locator('body')).not.toContainText('NaN');
  // A click on a row steps there; the step is in the link.
  await page.getByTestId('decoding-stepper-first').click();
  await expect(page.getByTestId('decoding-stepper-step')).toHaveAttribute('data-t', '0');
  await page.getByTestId('decoding-stepper-t').fill('6');
  await expect(page.getByTestId('decoding-stepper-cache')).toHaveAttribute('data-rows', '7');
  await page.getByTestId('decoding-stepper-head').selectOption({ value: '2' });
  await expect(page.getByTestId('decoding-stepper-keys')).toHaveAttribute('aria-label', /head 3/);
  await expect.poll(() => page.evaluate(() => location.hash)).not.toBe('');
  await page.reload();
  await expect(page.getByTestId('decoding-stepper-step')).toHaveAttribute('data-t', '6');
  await expect(page.getByTestId('decoding-stepper-head')).toHaveValue('2');
  await expect(page.getByTestId('decoding-stepper-keys')).toHaveAttribute('data-rows', '7');
});

test('the stepper opens a link at its step and steps with the keys; the Block page settings change its model', async ({ page }) => {
  const hash = '#v1.' + Buffer.from(JSON.stringify({ u: 'decoding', ds: { t: 3, l: 1, h: 3 }, bk: { l: 3 } })).toString('base64url');
  await page.goto('/' + hash);
  await expect(page.getByTestId('decoding-stepper-step')).toHaveAttribute('data-t', '3');
  await expect(page.getByTestId('decoding-stepper-layer')).toHaveValue('1');
  await expect(page.getByTestId('decoding-stepper-head')).toHaveValue('3');
  // 3 layers: L·H·(t + 1) = 3·4·4.
  await expect(page.getByTestId('decoding-stepper-work-cells')).toHaveAttribute('data-cached', '48');
  await page.getByTestId('decoding-stepper-step').focus();
  await page.keyboard.press('ArrowRight');
  await expect(page.getByTestId('decoding-stepper-step')).toHaveAttribute('data-t', '4');
  await page.keyboard.press('End');
  await expect(page.getByTestId('decoding-stepper-step')).toHaveAttribute('data-t', '10');
  await expect(page.getByTestId('decoding-stepper-verdict')).toHaveAttribute('data-equal', 'true');
  await page.getByTestId('decoding-stepper-to-block').click();
  await expect(page.getByTestId('block-view')).toBeVisible();
  await page.getByTestId('block-norm').selectOption('pre');
  await page.getByTestId('page-decoding').click();
  await expect(page.getByTestId('decoding-stepper-settings')).toContainText('3 layers');
  await expect(page.getByTestId('decoding-stepper-verdict')).toHaveAttribute('data-equal', 'true');
});

test('cross mode: the decoder over the source, with the memory keys and values in the cache', async ({ page }) => {
  await page.goto('/');
  await page.getByTestId('mode-cross').check();
  await page.getByTestId('page-decoding').click();
  await expect(stepper(page)).toHaveAttribute('data-mode', 'cross');
  await expect(page.getByTestId('decoding-stepper-model')).toContainText('cross-attention over the source');
  // "I love machine learning": 4 target tokens; "我爱机器学习": 6 source tokens.
  await expect(page.getByTestId('decoding-stepper-weights')).toHaveAttribute('data-rows', '4');
  await expect(page.getByTestId('decoding-stepper-cross')).toHaveAttribute('data-cols', '6');
  await expect(page.getByTestId('decoding-stepper-memory-keys')).toHaveAttribute('data-rows', '6');
  await expect(page.getByTestId('decoding-stepper-memory-values')).toHaveAttribute('data-cols', '16');
  await expect(page.getByTestId('decoding-stepper-memory-note')).toBeVisible();
  // Cells: L·H·(t + 1 + m) = 2·4·(1 + 6); the cache 2·2·(1 + 6) rows.
  await expect(page.getByTestId('decoding-stepper-work-cells')).toHaveAttribute('data-cached', '56');
  await expect(page.getByTestId('decoding-stepper-cache')).toHaveAttribute('data-entries', '28');
  await page.getByTestId('decoding-stepper-last').click();
  await expect(page.getByTestId('decoding-stepper-cache')).toHaveAttribute('data-entries', String(4 * (4 + 6)));
  await expect(page.getByTestId('decoding-stepper-keys')).toHaveAttribute('data-rows', '4');
  await expect(page.getByTestId('decoding-stepper-memory-keys')).toHaveAttribute('data-rows', '6');
  const diff = Number(await page.getByTestId('decoding-stepper-diff-output').getAttribute('data-value'));
  expect(diff < 1e-5, `max |Δ| = ${diff}`).toBe(true);
  await expect(page.getByTestId('decoding-stepper-verdict')).toHaveAttribute('data-equal', 'true');
});

test('the stepper on bad input: no text, heads that do not divide d, 512 tokens', async ({ page }) => {
  const hash = '#v1.' + Buffer.from(JSON.stringify({ u: 'decoding', bk: { h: 5 } })).toString('base64url');
  await page.goto('/' + hash);
  await expect(page.getByTestId('decoding-stepper-error')).toContainText('must divide d_model = 64');
  await expect(page.getByTestId('decoding-stepper-next')).toHaveCount(0);
  await page.goto('/');
  await page.getByTestId('page-decoding').click();
  await page.getByTestId('sentence-input').fill('');
  await expect(page.getByTestId('decoding-stepper-error')).toBeVisible();
  await expect(page.getByTestId('decoding-stepper-weights')).toHaveCount(0);
  // 512 tokens at d = 256: the Block page's work cap keeps the first tokens, and says so.
  const long = Array.from({ length: 512 }, (_, i) => `w${i}`).join(' ');
  await page.goto('/#v1.' + Buffer.from(JSON.stringify({ u: 'decoding', t: long, d: 256 })).toString('base64url'));
  await expect(page.getByTestId('decoding-stepper-limited')).toContainText('of 512 tokens', { timeout: 30_000 });
  await page.getByTestId('decoding-stepper-last').click();
  await expect(page.getByTestId('decoding-stepper-verdict')).toHaveAttribute('data-equal', 'true', { timeout: 30_000 });
  await expect(page.locator('body')).not.toContainText('NaN');
});

test('the stepper in 中文: its sentences, figures and verdict have no English words', async ({ page }) => {
  await openDecoding(page);
  await page.getByTestId('lang-zh').click();
  await expect(page.getByTestId('lang-zh')).toHaveAttribute('aria-pressed', 'true');
  await expect(stepper(page).locator('h3')).toHaveText('逐步解码');
  await page.getByTestId('decoding-stepper-last').click();
  await expect(page.getByTestId('decoding-stepper-verdict')).toHaveText('在舍入误差内相等');
  await expect.poll(() => englishLeft(page, '[data-testid=decoding-stepper]'), { timeout: 15_000 }).toEqual([]);
  await page.getByTestId('decoding-stepper-first').click();
  await expect.poll(() => englishLeft(page, '[data-testid=decoding-stepper]'), { timeout: 15_000 }).toEqual([]);
  await page.screenshot({ path: '/tmp/stepper-zh.png', fullPage: true });
});
