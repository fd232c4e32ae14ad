import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test, toChinese } from './fixtures';

// multilingual-E5-small (4-bit) in the same worker and views as MiniLM: Chinese tokens
// that are real pieces (not [UNK]), the 12 × 12 atlas, characters the build does not ship
// read as <unk> and named in one sentence, word starts shown as ␣ (not SentencePiece's
// ▁), and the model from the Cache API on an offline reload.

const ASSET = 'model/multilingual-e5-small.q4.safetensors';
const MINILM = 'model/all-minilm-l6-v2.q8.safetensors';
const dist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'dist');

test.describe('multilingual-E5-small', () => {
  test.skip(!existsSync(path.join(dist, ASSET)), `skipped: dist/${ASSET} is missing (run cargo xtask model)`);
  // Each test loads a 37 MB model and runs 12 layers several times: a minute is not
  // always enough on a loaded 2-core machine.
  test.describe.configure({ timeout: 180_000 });

  test('reads Chinese, draws 12 × 12 heads, names an emoji, and reloads offline from the cache', async ({ page, context }) => {
    await page.goto('/');
    await expect
      .poll(() => page.evaluate(async () => (await navigator.serviceWorker.ready).active?.state ?? ''))
      .toBe('activated');
    const input = page.locator('#sentence-input');
    await input.fill('我的猫喜欢吃鱼');
    await page.getByTestId('model-multilingual-e5-small').check();
    await expect(page.getByTestId('model-choice-status')).toHaveText('multilingual-E5-small: ready', { timeout: 60_000 });
    await expect(page.getByTestId('model-caveat')).toContainText("read as the model's unknown piece, and said so");
    const info = page.getByTestId('model-run-info');
    await expect(info).toContainText('through 12 layers', { timeout: 60_000 });

    // Real Chinese pieces: 猫 and 鱼 are tokens of their own, and nothing is unknown.
    const tokens = await page.getByTestId('search-query').locator('option').allTextContents();
    expect(tokens.join(' ')).toContain('猫');
    expect(tokens.join(' ')).toContain('鱼');
    expect(tokens.some((t) => /unk/i.test(t))).toBe(false);
    await expect(page.getByTestId('model-replaced')).toHaveCount(0);
    await expect(page.getByTestId('hide-special').locator('..')).toContainText('<s> and </s>');

    // Every head of every layer: 144 tiles, exported whole.
    const atlas = page.getByTestId('atlas');
    await expect(atlas).toHaveAttribute('data-rendered-tokens', String(tokens.length));
    await page.getByTestId('atlas-export-menu').locator('summary').click();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('atlas-export-json').click(),
    ]);
    const doc = JSON.parse(readFileSync(await download.path()).toString('utf8'));
    expect(doc.matrices).toHaveLength(144);
    expect(doc.matrices[143].label).toBe('L11 H11');

    // A character this build does not ship is read as <unk> and named (it used to stop
    // the run with a notice: see the test below).
    await input.fill('我的猫🐱');
    await expect(page.getByTestId('model-replaced')).toHaveAttribute('data-replaced', '["⟨🐱⟩"]');
    await expect(page.getByTestId('model-run-error')).toHaveCount(0);

    // Offline, the app comes from the service worker and the model from the cache.
    await input.fill('注意力机制');
    await expect(info).toContainText('through 12 layers');
    await context.setOffline(true);
    await page.reload();
    await expect(page.getByTestId('model-status')).toHaveAttribute('data-from-cache', 'true', { timeout: 60_000 });
    // A text typed offline runs through the cached model.
    await page.locator('#sentence-input').fill('离线也能用');
    await expect(page.getByTestId('model-run-info')).toContainText('through 12 layers', { timeout: 60_000 });
    await context.setOffline(false);
  });

  test('an emoji, an accented letter and an Arabic word are read as <unk>, marked on the figures and named in one sentence', async ({ page }) => {
    await page.goto('/');
    const input = page.locator('#sentence-input');
    await input.fill('我的猫🐱 café مرحبا');
    await page.getByTestId('model-multilingual-e5-small').check();
    await expect(page.getByTestId('model-run-info')).toContainText('through 12 layers', { timeout: 90_000 });
    await expect(page.getByTestId('model-run-error')).toHaveCount(0);

    // The figures are drawn over every token, the replaced ones among them.
    const options = await page.getByTestId('search-query').locator('option').allTextContents();
    const atlas = page.getByTestId('atlas');
    await expect(atlas).toHaveAttribute('data-rendered-tokens', String(options.length));
    await expect(atlas).toHaveAttribute('data-heads', '144');
    await expect(page.getByTestId('model-heatmap')).toHaveAttribute('data-rows', String(options.length));
    await expect(page.getByTestId('rank-row')).toHaveCount(144);
    // Each replaced stretch is one token, shown as what was typed between ⟨ ⟩.
    const note = page.getByTestId('model-replaced');
    await expect(note).toHaveAttribute('data-replaced', JSON.stringify(['⟨🐱⟩', '⟨é⟩', '⟨مرحبا⟩']));
    const shown = options.map((o) => o.replace(/^\d+ · /, ''));
    for (const t of ['⟨🐱⟩', '⟨é⟩', '⟨مرحبا⟩']) expect(shown).toContain(t);
    expect(shown.some((t) => t.includes('<unk>'))).toBe(false);
    // The large head's own labels (its export) carry the same marks.
    await page.getByTestId('model-heatmap-export-menu').locator('summary').click();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('model-heatmap-export-json').click(),
    ]);
    const doc = JSON.parse(readFileSync(await download.path()).toString('utf8'));
    expect(JSON.stringify(doc)).toContain('⟨مرحبا⟩');
    expect(JSON.stringify(doc)).toContain('⟨🐱⟩');
    await page.getByTestId('model-heatmap-export-menu').locator('summary').click();

    // One readable sentence: which characters, and why; no raw error or code points.
    await expect(note).toHaveText(
      "This build's model file ships only the pieces of Chinese, CJK and ASCII characters, so “🐱”, “é” and “مرحبا” were each read as the model's unknown piece <unk>; the figures show it as ⟨🐱⟩.",
    );
    const text = await page.getByTestId('model-page').innerText();
    expect(text).not.toMatch(/text:|U\+[0-9A-F]{4}/);
    await toChinese(page);
    await expect(note).toHaveText(
      '此构建的模型文件只附带汉字、中日韩字符及半角字母、数字和符号的词片，因此 “🐱”、“é”和“مرحبا” 都被当作模型的未知词片 <unk> 读入；图中显示为 ⟨🐱⟩。',
    );
  });

  test('word starts are shown as ␣ and explained once, never as SentencePiece’s raw ▁', async ({ page }) => {
    await page.goto('/');
    await page.locator('#sentence-input').fill('我的猫 likes fish');
    await page.getByTestId('model-multilingual-e5-small').check();
    await expect(page.getByTestId('model-run-info')).toContainText('through 12 layers', { timeout: 90_000 });
    const options = await page.getByTestId('search-query').locator('option').allTextContents();
    expect(options.join(' ')).not.toContain('▁');
    expect(options.some((o) => / · ␣fish$/.test(o)), options.join(' | ')).toBe(true);
    await expect(page.getByTestId('word-start-note')).toHaveCount(1);
    await expect(page.getByTestId('word-start-note')).toContainText('␣ marks a piece that starts a word. SentencePiece writes it ▁');
    // Nowhere else on the page: ▁ is said once, in the note.
    const text = await page.getByTestId('model-page').innerText();
    expect(text.split('▁').length - 1).toBe(1);
    // The figures' labels too (the large head's export and the lab variants on it).
    await page.getByTestId('model-heatmap-export-menu').locator('summary').click();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('model-heatmap-export-json').click(),
    ]);
    const doc = readFileSync(await download.path()).toString('utf8');
    expect(doc).not.toContain('▁');
    expect(doc).toContain('␣fish');
    // MiniLM has no word-start marks, and no note.
    await page.getByTestId('model-minilm-l6').check();
    await expect(page.getByTestId('model-run-info')).toContainText('through 6 layers', { timeout: 90_000 });
    await expect(page.getByTestId('word-start-note')).toHaveCount(0);
  });

  test('switching between the real models loads the one chosen, both ways, twice, and through a link', async ({ page, context }) => {
    test.skip(!existsSync(path.join(dist, MINILM)), `skipped: dist/${MINILM} is missing (run cargo xtask model)`);
    const fetched: string[] = [];
    context.on('request', (r) => {
      if (r.url().includes('/model/')) fetched.push(new URL(r.url()).pathname.replace(/^.*\/model\//, 'model/'));
    });
    await page.goto('/');
    await page.locator('#sentence-input').fill('我的猫 my cat');
    const tokens = async () => (await page.getByTestId('search-query').locator('option').allTextContents()).join(' ');
    const minilm = async () => {
      await page.getByTestId('model-minilm-l6').check();
      await expect(page.getByTestId('model-choice-status')).toHaveText('MiniLM-L6: ready', { timeout: 60_000 });
      await expect(page.getByTestId('model-status')).toContainText('MiniLM-L6 (real) is ready: 23.2 MB');
      await expect(page.getByTestId('model-status')).toContainText('6 layers × 12 heads');
      await expect(page.getByTestId('model-run-info')).toContainText('through 6 layers', { timeout: 60_000 });
      // MiniLM's English vocabulary: the Chinese characters are [UNK], no SentencePiece marks.
      expect(await tokens()).toContain('[UNK]');
      expect(await tokens()).not.toContain('▁');
      await expect(page.getByTestId('atlas')).toHaveAttribute('data-heads', '72');
    };
    const e5 = async () => {
      await page.getByTestId('model-multilingual-e5-small').check();
      await expect(page.getByTestId('model-choice-status')).toHaveText('multilingual-E5-small: ready', { timeout: 90_000 });
      await expect(page.getByTestId('model-status')).toContainText('12 layers × 12 heads');
      await expect(page.getByTestId('model-status')).not.toContainText('23.2 MB');
      await expect(page.getByTestId('model-run-info')).toContainText('through 12 layers', { timeout: 90_000 });
      expect(await tokens()).toContain('猫');
      expect(await tokens()).not.toContain('[UNK]');
      await expect(page.getByTestId('atlas')).toHaveAttribute('data-heads', '144');
    };
    for (let round = 0; round < 2; round++) {
      await minilm();
      await e5();
    }
    // Each file was fetched once (the second time from the Cache API), both were fetched.
    expect(fetched.filter((f) => f === MINILM)).toHaveLength(1);
    expect(fetched.filter((f) => f === ASSET)).toHaveLength(1);
    // A link that names the other model, opened in this tab, loads that model.
    const e5Link = await page.getByTestId('share-link').inputValue();
    expect(e5Link).toMatch(/#v1z?\./);
    await minilm();
    await page.goto(e5Link);
    await expect(page.getByTestId('model-choice-status')).toHaveText('multilingual-E5-small: ready', { timeout: 90_000 });
    await expect(page.getByTestId('model-run-info')).toContainText('through 12 layers', { timeout: 90_000 });
    expect(await tokens()).toContain('猫');
  });

  test('a sentence and its translation: the alignment, the heads that cross, and the pair under substitution', async ({ page }) => {
    await page.goto('/');
    await page.getByTestId('model-multilingual-e5-small').check();
    await expect(page.getByTestId('model-choice-status')).toHaveText('multilingual-E5-small: ready', { timeout: 60_000 });
    await page.getByTestId('pair-example').click();
    await expect(page.locator('#sentence-input')).toHaveValue('我的猫喜欢吃鱼');
    await expect(page.locator('#pair-input')).toHaveValue('My cat likes eating fish.');
    // The example opens on layer 5, head 5, whose weight lands on each word's translation.
    await expect(page.getByTestId('model-layer')).toHaveValue('5');
    await expect(page.getByTestId('model-head')).toHaveValue('5');
    const lines = page.getByTestId('alignment-canvas');
    await expect(lines).toHaveAttribute('data-rendered-tokens', /^[1-9]\d*$/, { timeout: 60_000 });
    expect(Number(await lines.getAttribute('data-lines'))).toBeGreaterThan(0);
    // Seen on a projector: the strongest line is drawn opaque in the head's colour
    // (31, 119, 180) and 4 px wide, so hundreds of pixels have that colour beyond the
    // legend's 12 × 12 swatch (before, a line's opacity was its weight, at most 0.37
    // here, and 2 px wide: no pixel came near the colour).
    await lines.scrollIntoViewIfNeeded();
    const strong = await lines.evaluate((c: HTMLCanvasElement) => {
      const d = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
      let n = 0;
      for (let i = 0; i < d.length; i += 4) {
        if (Math.abs(d[i] - 31) + Math.abs(d[i + 1] - 119) + Math.abs(d[i + 2] - 180) < 60) n++;
      }
      return { n, dpr: window.devicePixelRatio };
    });
    expect(strong.n, `pixels of the head's colour at ${strong.dpr}× pixels`).toBeGreaterThan(600 * strong.dpr * strong.dpr);
    await lines.screenshot({ path: '/tmp/e5-alignment.png' });
    expect(Number(await lines.getAttribute('data-rendered-keys'))).toBeGreaterThan(3);
    await page.getByTestId('pair-backward').check();
    await expect(page.getByTestId('alignment-note')).toContainText("not a translation decoder's cross attention");
    // Every one of the 144 heads ranked by the weight that crosses; the top 12 listed.
    await expect(page.getByTestId('crossing-ranking')).toHaveAttribute('data-heads', '144');
    await expect(page.getByTestId('crossing-row')).toHaveCount(12);
    await page.getByTestId('crossing-row').first().locator('button').click();
    await expect(page.getByTestId('crossing-row').first().locator('button')).toHaveAttribute('aria-pressed', 'true');

    // Linear attention (elu + 1) in every layer: the pair's similarity with and without.
    const cards = page.getByTestId('variant-on-head');
    await cards.nth(1).getByTestId('attention').selectOption('elu1');
    await page.getByTestId('substitution-variant').selectOption('1');
    await page.getByTestId('substitution-every-layer').check();
    await page.getByTestId('substitution-run').click();
    await expect(page.getByTestId('substitution-pair')).toContainText(
      /“我的猫喜欢吃鱼” and “My cat likes eating fish\.”: similarity [0-9.]+ with the model's own attention, [0-9.-]+ with B/,
      { timeout: 60_000 },
    );
    await expect(page.getByTestId('substitution-layer')).toHaveCount(12);
  });
});
