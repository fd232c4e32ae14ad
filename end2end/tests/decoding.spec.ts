import { type Page } from '@playwright/test';
import { expect, test } from './fixtures';

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
