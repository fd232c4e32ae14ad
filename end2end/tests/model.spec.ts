import { readFileSync } from 'node:fs';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Page } from '@playwright/test';
import { expect, test, throttle } from './fixtures';

// The real model (MiniLM-L6) in its worker: loading with progress, cancel, the Cache API,
// the atlas, the head search, the [CLS]/[SEP] switch, rollout and flow.
//
// DOM contract (src/pages/model/, src/shell/model_choice.rs):
//   [data-testid=page-model]             the "Real model" tab
//   [data-testid=model-load|model-cancel] buttons; progress[data-testid=model-progress]
//   [data-testid=model-status]           one sentence; data-from-cache once ready
//   [data-testid=model-toy|model-minilm-l6] the model choice in the sidebar
//   canvas[data-testid=atlas]            every head (data-rendered-tokens = tokens)
//   [data-testid=model-layer|model-head] <select>s; [data-testid=hide-special] checkbox
//   canvas[data-testid=model-heatmap]    the selected head (data-rows, data-cols)
//   [data-testid=search-query|search-key] <select>s, [data-testid=search-example]
//   [data-testid=rank-row]               one per head, [class=rank-weight] its weight
//   [data-testid=relevance-rollout|relevance-flow] radios; canvas[data-testid=relevance-heatmap]

const ASSET = 'model/all-minilm-l6-v2.q8.safetensors';
const CACHE = 'attnlab-models-v1';
const dist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'dist');
const haveAsset = existsSync(path.join(dist, ASSET));

const status = (page: Page) => page.getByTestId('model-status');

async function cachedAssets(page: Page): Promise<number> {
  return page.evaluate(async (name) => (await (await caches.open(name)).keys()).length, CACHE);
}

/** The weights of the head ranking, top to bottom. */
async function ranking(page: Page): Promise<number[]> {
  const texts = await page.getByTestId('rank-row').locator('.rank-weight').allTextContents();
  return texts.map(Number);
}

test.describe('the real model', () => {
  test.skip(!haveAsset, `skipped: dist/${ASSET} is missing (run cargo xtask model)`);

  test('loads with progress, can be cancelled, and comes from the cache the second time', async ({ page, context }) => {
    const fetched: string[] = [];
    context.on('request', (r) => {
      if (r.url().includes('/model/')) fetched.push(r.url());
    });
    await page.goto('/');
    await page.getByTestId('page-model').click();
    // Slow enough to see the bar move and to cancel (23 MB at 4 MB/s: about 6 s).
    await throttle(context, page, 4e6);
    await page.getByTestId('model-load').click();
    const bar = page.getByTestId('model-progress');
    await expect(bar).toBeVisible();
    await expect
      .poll(async () => Number(await bar.getAttribute('value')), { message: 'bytes arrive' })
      .toBeGreaterThan(0);
    expect(Number(await bar.getAttribute('max'))).toBeGreaterThan(20e6);
    await expect(status(page)).toContainText(/Downloading MiniLM-L6 \(real\): [\d.]+ MB of 23\.2 MB/);
    await page.getByTestId('model-cancel').click();
    await expect(status(page)).toHaveText('Loading was cancelled; nothing was kept.');
    expect(await cachedAssets(page)).toBe(0);
    expect(fetched.length).toBe(1);

    // Again, at full speed: from the network, then kept.
    await throttle(context, page, -1);
    await page.getByTestId('model-load').click();
    await expect(status(page)).toHaveAttribute('data-from-cache', 'false', { timeout: 30_000 });
    await expect(status(page)).toContainText('23.2 MB loaded from the network');
    expect(await cachedAssets(page)).toBe(1);
    expect(fetched.length).toBe(2);

    // A new visit through the link: the model loads by itself, from the cache.
    const link = page.url();
    expect(link).toContain('#v1');
    await page.goto('about:blank');
    await page.goto(link);
    await expect(status(page)).toHaveAttribute('data-from-cache', 'true', { timeout: 30_000 });
    await expect(status(page)).toContainText("from this browser's cache");
    expect(fetched.length, 'no new request for the asset').toBe(2);
    await expect(page.getByTestId('model-choice-status')).toHaveText('MiniLM-L6: ready');
  });

  test('the atlas, the head search, the [CLS]/[SEP] switch, rollout and flow', async ({ page }) => {
    await page.goto('/');
    await page.getByTestId('model-minilm-l6').check();
    await expect(page.getByTestId('page-model')).toHaveAttribute('aria-selected', 'true');
    // [CLS] the animal didn ' t cross the street because it was too tired [SEP]
    const atlas = page.getByTestId('atlas');
    await expect(atlas).toHaveAttribute('data-rendered-tokens', '15', { timeout: 30_000 });
    // The atlas exports whole: every layer's heads, labelled, as one matrices document.
    await page.getByTestId('atlas-export-menu').locator('summary').click();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('atlas-export-json').click(),
    ]);
    const atlasDoc = JSON.parse(readFileSync(await download.path()).toString('utf8'));
    expect(atlasDoc.format).toBe('attnlab-matrices/1');
    expect(atlasDoc.matrices).toHaveLength(6 * 12);
    expect(atlasDoc.matrices[0].rows).toHaveLength(15);
    await page.getByTestId('atlas-export-menu').locator('summary').click();
    await expect(page.getByTestId('model-run-info')).toContainText('15 tokens through 6 layers');

    // The atlas picks layer and head: Down moves a layer, Right a head.
    await atlas.focus();
    for (let i = 0; i < 3; i++) await atlas.press('ArrowDown');
    for (let i = 0; i < 10; i++) await atlas.press('ArrowRight');
    await expect(page.getByTestId('model-layer')).toHaveValue('3');
    await expect(page.getByTestId('model-head')).toHaveValue('10');
    await expect(page.getByTestId('side-layer')).toHaveValue('3');
    const heatmap = page.getByTestId('model-heatmap');
    await expect(heatmap).toHaveAttribute('data-rows', '15');

    // The head search on the example: from "it" (10) to "animal" (2), all 72 heads ranked.
    await page.getByTestId('search-example').click();
    await expect(page.getByTestId('search-query')).toHaveValue('10');
    await expect(page.getByTestId('search-key')).toHaveValue('2');
    await expect(page.getByTestId('rank-row')).toHaveCount(72);
    const shown = await ranking(page);
    expect(shown.every((w, i) => i === 0 || w <= shown[i - 1])).toBe(true);
    expect(shown[0]).toBeGreaterThan(shown[71]);
    await expect(page.getByTestId('search-caution')).toContainText('not that the model understood');
    // Clicking a ranked head shows it.
    await page.getByTestId('rank-row').nth(5).click();
    const [layer, head] = ((await page.getByTestId('rank-row').nth(5).locator('.rank-head').textContent()) ?? '')
      .match(/\d+/g)!.map(String);
    await expect(page.getByTestId('model-layer')).toHaveValue(layer);
    await expect(page.getByTestId('model-head')).toHaveValue(head);

    // Hiding [CLS] and [SEP]: two rows fewer, and every weight renormalised upwards.
    await page.getByTestId('hide-special').check();
    await expect(heatmap).toHaveAttribute('data-rows', '13');
    await expect(atlas).toHaveAttribute('data-rendered-tokens', '13');
    const hidden = await ranking(page);
    expect(hidden[0]).toBeGreaterThanOrEqual(shown[0]);
    expect(Math.min(...hidden)).toBeGreaterThanOrEqual(Math.min(...shown));
    expect(page.url()).toContain('#v1');

    // Rollout beside the layer's mean, then flow (computed in the worker).
    const relevance = page.getByTestId('relevance-heatmap');
    await expect(relevance).toHaveAttribute('data-rows', '13');
    await expect(page.getByTestId('layer-average')).toHaveAttribute('data-rows', '13');
    await page.getByTestId('relevance-flow').check();
    await expect(page.getByTestId('relevance-note')).toContainText(/ms\)\.$/, { timeout: 30_000 });
    await expect(relevance).toHaveAttribute('data-rows', '13');

    // Back to the toy model: the lab is as it was.
    await page.getByTestId('model-toy').check();
    await expect(page.getByTestId('model-load')).toBeVisible();
  });

  test('the first screen shows attention, the “it → animal” example shows its top head large, and the advice fits each model', async ({ page }) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto('/');
    await page.getByTestId('model-minilm-l6').check();
    const atlas = page.getByTestId('atlas');
    const heatmap = page.getByTestId('model-heatmap');
    await expect(atlas).toHaveAttribute('data-rendered-tokens', '15', { timeout: 30_000 });
    await expect(heatmap).toHaveAttribute('data-rows', '15');
    // Without scrolling, the atlas and the selected head are on the first screen: the
    // whole atlas, and the large head from its title down through most of its rows.
    // (Checking the model choice scrolled the sidebar's radio into view: back to the top.)
    await page.evaluate(() => window.scrollTo(0, 0));
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    await page.screenshot({ path: '/tmp/model-first-screen.png' });
    const a = (await atlas.boundingBox())!;
    const h = (await heatmap.boundingBox())!;
    expect(a.y, 'the atlas starts on the first screen').toBeGreaterThanOrEqual(0);
    expect(a.y + a.height, 'the whole atlas is above the fold').toBeLessThanOrEqual(900);
    expect(a.width).toBeGreaterThan(400);
    expect(h.y).toBeLessThan(900);
    expect(900 - h.y, 'the large head title and most rows are above the fold').toBeGreaterThanOrEqual(Math.min(h.height, 350));
    console.log(`first screen at 1440 × 900: atlas ${JSON.stringify(a)}, large head ${JSON.stringify(h)}`);

    // The example selects the head the search ranks first for “it” → “animal”, and
    // shows it large.
    await expect(page.getByTestId('model-layer')).toHaveValue('0');
    await expect(page.getByTestId('model-head')).toHaveValue('0');
    await page.getByTestId('search-example').click();
    await expect(page.getByTestId('search-query')).toHaveValue('10');
    await expect(page.getByTestId('search-key')).toHaveValue('2');
    const first = page.getByTestId('rank-row').first();
    await expect(first).toHaveClass(/is-selected/);
    const [layer, head] = ((await first.locator('.rank-head').textContent()) ?? '').match(/\d+/g)!;
    expect(`${layer},${head}`, 'the top head is not the one shown before').not.toBe('0,0');
    await expect(page.getByTestId('model-layer')).toHaveValue(layer);
    await expect(page.getByTestId('model-head')).toHaveValue(head);
    await expect(heatmap).toBeInViewport({ ratio: 0.5 });
    await expect(page.getByTestId('model-head-panel')).toBeInViewport({ ratio: 0.5 });
    // From another text, the example brings its sentence and then its top head.
    await page.getByTestId('model-layer').selectOption('5');
    await page.locator('#sentence-input').fill('the cat sat on the mat');
    await expect(atlas).toHaveAttribute('data-rendered-tokens', '8');
    await page.getByTestId('search-example').click();
    await expect(atlas).toHaveAttribute('data-rendered-tokens', '15');
    await expect(page.getByTestId('model-layer')).toHaveValue(layer);
    await expect(page.getByTestId('model-head')).toHaveValue(head);

    // The advice says what each model reads, and sends Chinese to the multilingual model,
    // not to the toy.
    const caveat = page.locator('.model-caveat');
    await expect(caveat).toContainText('MiniLM reads English only');
    await expect(caveat).toContainText('For Chinese, choose multilingual-E5-small.');
    await expect(page.getByTestId('model-page')).not.toContainText('toy (seeded) model');
  });

  test('lab variants run on a real head, and inside the model with the consequence shown', async ({ page }) => {
    await page.goto('/');
    await page.getByTestId('model-minilm-l6').check();
    await expect(page.getByTestId('atlas')).toHaveAttribute('data-rendered-tokens', '15', { timeout: 30_000 });
    const cards = page.getByTestId('variant-on-head');
    await expect(cards).toHaveCount(2);
    // A is scaled dot-product softmax: the model's own attention, exactly.
    await expect(cards.nth(0).getByTestId('variant-on-head-metrics')).toContainText('max |ΔA| 0.000,');
    await expect(cards.nth(0).getByTestId('variant-on-head-heatmap')).toHaveAttribute('data-rows', '15');
    // B becomes linear (elu + 1) on the same real Q, K, V: it differs, and the lab's B too.
    await cards.nth(1).getByTestId('attention').selectOption('elu1');
    const metrics = cards.nth(1).getByTestId('variant-on-head-metrics');
    await expect(metrics).toContainText('Against the model');
    const maxAbs = Number((await metrics.textContent())!.match(/max \|ΔA\| ([0-9.]+)/)![1]);
    expect(maxAbs).toBeGreaterThan(0.05);
    await expect(cards.nth(1).getByTestId('variant-on-head-difference')).toHaveAttribute('data-rows', '15');
    await page.getByTestId('page-lab').click();
    await expect(page.getByTestId('variant').nth(1).getByTestId('attention')).toHaveValue('elu1');
    await page.getByTestId('page-model').click();

    // B (linear) in every layer: the embedding moves, the pair's similarity changes.
    await page.getByTestId('substitution-example').click();
    await expect(page.getByTestId('atlas')).toHaveAttribute('data-rendered-tokens', '8');
    await page.getByTestId('substitution-variant').selectOption('1');
    await page.getByTestId('substitution-every-layer').check();
    await page.getByTestId('substitution-run').click();
    const cosine = page.getByTestId('substitution-cosine');
    await expect(cosine).toContainText('B in every head of every layer', { timeout: 30_000 });
    const c = Number(await cosine.getAttribute('data-cosine'));
    expect(c).toBeLessThan(0.99);
    expect(c).toBeGreaterThan(-1);
    await expect(page.getByTestId('substitution-layer')).toHaveCount(6);
    await expect(page.getByTestId('substitution-pair')).toContainText(
      /“the cat sat on the mat” and “a cat was sitting on a mat”: similarity [0-9.]+ with the model's own attention, [0-9.]+ with B/,
    );

    // A (the model's own attention) in one head changes nothing.
    await page.getByTestId('substitution-variant').selectOption('0');
    await page.getByTestId('substitution-this-head').check();
    await page.getByTestId('substitution-run').click();
    await expect(cosine).toContainText('A in head 0 of layer 0');
    expect(Number(await cosine.getAttribute('data-cosine'))).toBeGreaterThan(0.9999);
  });

  test('the new kinds, softcap and sinks run on a real head, and inside the model', async ({ page }) => {
    await page.goto('/');
    await page.getByTestId('model-minilm-l6').check();
    await expect(page.getByTestId('atlas')).toHaveAttribute('data-rendered-tokens', '15', { timeout: 30_000 });
    const b = page.getByTestId('variant-on-head').nth(1);
    const metrics = b.getByTestId('variant-on-head-metrics');
    await expect(metrics).toContainText('Against the model');
    // Each kind on the head's own Q, K, V (its extra parameters seeded): a figure of 15
    // rows, and numbers against the model's attention instead of an error.
    for (const kind of ['softmax_plus_one', 'sigmoid', 'softpick', 'sink', 'differential', 'decayed_linear', 'favor']) {
      const before = await metrics.textContent();
      await b.getByTestId('attention').selectOption(kind);
      await expect(metrics, kind).not.toHaveText(before!);
      await expect(b.getByTestId('variant-on-head-error'), kind).toHaveCount(0);
      await expect(metrics, kind).toContainText('Against the model');
      const maxAbs = Number((await metrics.textContent())!.match(/max \|ΔA\| ([0-9.]+)/)![1]);
      expect(maxAbs, kind).toBeGreaterThan(0.001);
      await expect(b.getByTestId('variant-on-head-heatmap')).toHaveAttribute('data-rows', '15');
    }

    // Where the model's own heads put their weight: the first token, [CLS], per layer and
    // head, each a mean weight in [0, 1].
    const first = page.getByTestId('model-first-token');
    await expect(first.getByTestId('model-first-token-heatmap')).toHaveAttribute('data-rows', '6');
    await expect(first.getByTestId('model-first-token-heatmap')).toHaveAttribute('data-cols', '12');
    await first.getByTestId('model-first-token-heatmap-values').locator('summary').click();
    const cells = (await first.getByTestId('model-first-token-heatmap-values-table').locator('tbody td').allTextContents()).map(Number);
    expect(cells).toHaveLength(72);
    expect(cells.every((c) => c >= 0 && c <= 1)).toBe(true);

    // Inside the model: B in every layer moves the embedding, kind by kind and option by
    // option; the cosine of each run is its own.
    await page.getByTestId('substitution-example').click();
    await expect(page.getByTestId('atlas')).toHaveAttribute('data-rendered-tokens', '8');
    await page.getByTestId('substitution-variant').selectOption('1');
    await page.getByTestId('substitution-every-layer').check();
    const cosine = page.getByTestId('substitution-cosine');
    const cosines: number[] = [];
    const substitute = async (what: string) => {
      const before = (await cosine.count()) ? await cosine.getAttribute('data-cosine') : null;
      await page.getByTestId('substitution-run').click();
      await expect.poll(() => cosine.getAttribute('data-cosine'), { message: what, timeout: 30_000 }).not.toBe(before);
      await expect(cosine).toContainText('B in every head of every layer');
      const c = Number(await cosine.getAttribute('data-cosine'));
      expect(c, what).toBeLessThan(0.9999);
      expect(c, what).toBeGreaterThan(-1);
      cosines.push(c);
    };
    for (const kind of ['sigmoid', 'softmax_plus_one', 'sink']) {
      await b.getByTestId('attention').selectOption(kind);
      // A sink logit of 0 is softmax + 1 exactly (e^0 = 1): give the sink its own.
      if (kind === 'sink') {
        await b.getByTestId('sink-logit').fill('2');
        await b.getByTestId('sink-logit').press('Enter');
      }
      await substitute(kind);
    }
    await b.getByTestId('attention').selectOption('softmax');
    await b.getByTestId('score').selectOption('scaled_dot');
    await b.getByTestId('softcap').check();
    await b.getByTestId('softcap-c').fill('1');
    await b.getByTestId('softcap-c').press('Enter');
    await substitute('softcap 1');
    await b.getByTestId('softcap').uncheck();
    await b.getByTestId('mask-window').check();
    await substitute('window');
    await b.getByTestId('sinks').check();
    await substitute('window and sinks');
    expect(new Set(cosines).size).toBe(cosines.length);
  });

  test('empty, Chinese, long and marked-up texts get a defined answer', async ({ page }) => {
    await page.goto('/');
    await page.getByTestId('model-minilm-l6').check();
    const atlas = page.getByTestId('atlas');
    await expect(atlas).toHaveAttribute('data-rendered-tokens', '15', { timeout: 30_000 });
    const input = page.locator('#sentence-input');

    // Nothing to read: one sentence, and the text box keeps what was typed.
    await input.fill('   ');
    await expect(page.getByTestId('model-run-error')).toContainText('the text has no words');
    await expect(input).toHaveValue('   ');

    // Chinese: MiniLM's vocabulary lacks most characters (said next to the choice).
    await input.fill('我爱机器学习');
    await expect(page.getByTestId('model-run-info')).toContainText('8 tokens through 6 layers');
    await expect(page.locator('.model-caveat')).toContainText('[UNK]');
    await expect(page.getByTestId('search-query').locator('option', { hasText: '[UNK]' }).first()).toBeAttached();

    // Markup is text: it is tokenised, never rendered.
    await input.fill('<b>bold</b> & <script>x</script>');
    await expect(page.getByTestId('model-run-info')).toContainText('tokens through 6 layers');
    await expect(page.locator('b', { hasText: 'bold' })).toHaveCount(0);

    // Long: cut to 256 tokens with a notice; flow says why it is off beyond 64 tokens.
    await input.fill(Array.from({ length: 300 }, (_, i) => `word${i % 10}`).join(' '));
    await expect(page.getByTestId('model-run-info')).toContainText('was cut to 256', { timeout: 30_000 });
    await expect(atlas).toHaveAttribute('data-rendered-tokens', '256', { timeout: 30_000 });
    await page.getByTestId('relevance-flow').check();
    await expect(page.getByTestId('relevance-note')).toContainText('offered up to 64 tokens, and this text has 256');
  });

  test('a link to the real model without its file says what is missing', async ({ page, context }) => {
    await context.route(`**/${ASSET}`, (route) => route.fulfill({ status: 404, body: 'not found' }));
    await page.goto('/');
    await page.getByTestId('model-minilm-l6').check();
    await expect(status(page)).toContainText('not part of this build of attnlab', { timeout: 30_000 });
    await expect(status(page)).toContainText('cargo xtask model');
    await expect(page.getByTestId('model-choice-status')).toHaveText('MiniLM-L6: not in this build');
    // The toy model still works.
    await page.getByTestId('page-lab').click();
    await expect(page.getByTestId('heatmap')).toHaveAttribute('data-rendered-tokens', '11');
  });
});
