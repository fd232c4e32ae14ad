import { type Page } from '@playwright/test';
import { expect, test, toChinese } from './fixtures';
import { englishLeft } from './english';
import { seriousViolations } from './axe';

// The Block page: a stack of seeded Transformer layers on the lab's sentence (post-LN or
// pre-LN, ReLU or GELU, 1–6 layers), each sub-layer's input and output, the heads of the
// layer shown, the residual stream, the permutation check; in cross mode the decoder.
//
// DOM contract (src/pages/block/):
//   [data-testid=page-block]                         the tab
//   [data-testid=block-view]                         the page, data-mode encoder|decoder
//   select block-layers|block-norm|block-activation|block-heads|block-ffn|block-shown
//   [data-testid=block-sizes]                        the sizes run
//   [data-testid=block-sublayer-self|cross|ffn]      data-mean-norm: mean ‖x‖ leaving
//   canvas block-<self|cross|ffn>-input|output       data-rows × data-cols once painted
//   [data-testid=block-head-<self|cross>-<h>]        data-blocked (cells), data-upper-zero
//   canvas block-memory                              cross mode: the encoder's output, m × d
//   [data-testid=block-residual]                     data-last-norm: mean ‖x‖ after the last layer
//   canvas block-residual-canvas                     (layers + 1) × tokens
//   [data-testid=block-perm-ffn|block-perm-attention] data-value: the largest difference
//   canvas block-perm-<ffn|attention>-pair-shuffled-first|-after|-difference  side by side
//   button block-perm-shuffle | block-perm-backwards  the seed's next shuffle | backwards
//   [data-testid=block-heads-reason]                 why the heads do not divide d

const num = async (page: Page, id: string, attr = 'data-value') =>
  Number(await page.getByTestId(id).getAttribute(attr));

async function open(page: Page, hash = '') {
  await page.goto('/' + hash);
  await page.getByTestId('page-block').click();
  await expect(page.getByTestId('block-view')).toBeVisible();
  if (!hash) await expect(page.getByTestId('block-residual-canvas')).toHaveAttribute('data-rows', /\d+/);
}

test('the block runs on the sentence: sub-layers, heads and the residual stream are drawn', async ({ page }) => {
  await open(page);
  await expect(page.getByTestId('block-view')).toHaveAttribute('data-mode', 'encoder');
  await expect(page.getByTestId('block-sizes')).toContainText('2 layers, d = 64, 4 heads of 16 features, f = 256, 11 tokens');
  for (const id of ['self', 'ffn']) {
    await expect(page.getByTestId(`block-${id}-input`)).toHaveAttribute('data-rows', '11');
    await expect(page.getByTestId(`block-${id}-output`)).toHaveAttribute('data-cols', '64');
  }
  await expect(page.getByTestId('block-sublayer-cross')).toHaveCount(0);
  await expect(page.getByTestId('block-memory')).toHaveCount(0);
  for (let h = 0; h < 4; h++) {
    await expect(page.getByTestId(`block-head-self-${h}`)).toHaveAttribute('data-blocked', '0');
    await expect(page.getByTestId(`block-head-self-${h}-canvas`)).toHaveAttribute('data-cols', '11');
  }
  await expect(page.getByTestId('block-residual-canvas')).toHaveAttribute('data-rows', '3');
});

test('post-LN against pre-LN: the residual stream and the figures change', async ({ page }) => {
  await open(page);
  // Post-LN ends every sub-layer with LayerNorm (gain 1): every token at norm √64 = 8.
  const residual = page.getByTestId('block-residual');
  const postText = (await residual.getAttribute('data-last-norm'))!;
  expect(Math.abs(Number(postText) - 8)).toBeLessThan(0.01);
  const before = await page.getByTestId('block-ffn-output').evaluate((c: HTMLCanvasElement) => c.toDataURL());
  await page.getByTestId('block-norm').selectOption('pre');
  await expect(residual).not.toHaveAttribute('data-last-norm', postText);
  const pre = await num(page, 'block-residual', 'data-last-norm');
  expect(Number.isFinite(pre) && Math.abs(pre - 8) > 0.5, `pre-LN mean norm ${pre}`).toBe(true);
  await expect
    .poll(() => page.getByTestId('block-ffn-output').evaluate((c: HTMLCanvasElement) => c.toDataURL()))
    .not.toBe(before);
  // The link keeps it.
  await expect.poll(() => page.evaluate(() => location.hash)).not.toBe('');
  await page.reload();
  await expect(page.getByTestId('block-norm')).toHaveValue('pre');
  await expect(residual).toHaveAttribute('data-last-norm', String(pre));
});

test('the layers and the layer shown change what is drawn', async ({ page }) => {
  await open(page);
  await page.getByTestId('block-layers').selectOption('5');
  await expect(page.getByTestId('block-residual-canvas')).toHaveAttribute('data-rows', '6');
  await expect(page.getByTestId('block-shown').locator('option')).toHaveCount(5);
  const ffn = page.getByTestId('block-sublayer-ffn');
  const postText = (await ffn.getAttribute('data-mean-norm'))!;
  await page.getByTestId('block-norm').selectOption('pre');
  await expect(ffn).not.toHaveAttribute('data-mean-norm', postText);
  const layer1Text = (await ffn.getAttribute('data-mean-norm'))!;
  await page.getByTestId('block-shown').selectOption('4');
  await expect(ffn).not.toHaveAttribute('data-mean-norm', layer1Text);
  // Pre-LN: the stream grows layer after layer.
  expect(await num(page, 'block-sublayer-ffn', 'data-mean-norm')).toBeGreaterThan(Number(layer1Text));
  await page.getByTestId('block-layers').selectOption('2');
  await expect(page.getByTestId('block-shown')).toHaveValue('1');
  await expect(page.getByTestId('block-residual-canvas')).toHaveAttribute('data-rows', '3');
});

test('the feed-forward follows a shuffle of the tokens exactly; attention does not', async ({ page }) => {
  await open(page);
  await expect(page.getByTestId('block-perm-ffn')).toHaveAttribute('data-value', '0');
  await expect(page.getByTestId('block-perm-ffn')).toHaveText('0');
  expect(await num(page, 'block-perm-attention')).toBeGreaterThan(0.01);
  await expect(page.getByTestId('block-order')).toContainText('tired · too · was');
  await page.getByTestId('block-activation').selectOption('gelu');
  await expect(page.getByTestId('block-perm-ffn')).toHaveAttribute('data-value', '0');
});

test('the shuffle button draws both sides of each comparison: the pair of the feed-forward stays equal', async ({ page }) => {
  await open(page);
  const sides = ['ffn', 'attention'].flatMap((s) => [`block-perm-${s}-pair-shuffled-first`, `block-perm-${s}-pair-shuffled-after`]);
  for (const s of ['ffn', 'attention']) await expect(page.getByTestId(`block-perm-${s}-pair-difference`)).toHaveAttribute('data-rows', '11');
  await expect(page.getByTestId('block-perm-attention-pair-shuffled-first')).toHaveAttribute('aria-label', /^Attn\(X′\)/);
  await expect(page.getByTestId('block-perm-attention-pair-difference')).toHaveAttribute('aria-label', /^Attn\(X′\) − P·Attn\(X\)/);
  for (const id of sides) {
    await expect(page.getByTestId(id)).toHaveAttribute('data-rows', '11');
    await expect(page.getByTestId(id)).toHaveAttribute('data-cols', '64');
  }
  // The two sides of the feed-forward paint the same pixels below their titles;
  // attention's do not.
  const pixels = (id: string) =>
    page.getByTestId(id).evaluate((c: HTMLCanvasElement) => {
      const top = Math.round(c.height * 0.2);
      const data = c.getContext('2d')!.getImageData(0, top, c.width, c.height - top).data;
      let h = 0;
      for (let i = 0; i < data.length; i++) h = (Math.imul(h, 31) + data[i]) | 0;
      return `${c.width}x${c.height}:${h}`;
    });
  const same = async (a: string, b: string) => (await pixels(a)) === (await pixels(b));
  expect(await same(sides[0], sides[1])).toBe(true);
  expect(await same(sides[2], sides[3])).toBe(false);
  await expect(page.getByTestId('block-perm-backwards')).toBeDisabled();
  const backwards = await page.getByTestId('block-order').innerText();
  await page.getByTestId('block-perm-shuffle').click();
  await expect(page.getByTestId('block-order')).not.toHaveText(backwards);
  const shuffled = await page.getByTestId('block-order').innerText();
  expect(shuffled.split(' · ').sort()).toEqual(backwards.split(' · ').sort());
  await expect(page.getByTestId('block-perm-ffn')).toHaveAttribute('data-value', '0');
  expect(await num(page, 'block-perm-attention')).toBeGreaterThan(0.01);
  await expect.poll(() => same(sides[0], sides[1])).toBe(true);
  await page.getByTestId('block-perm-shuffle').click();
  await expect(page.getByTestId('block-order')).not.toHaveText(shuffled);
  await page.getByTestId('block-perm-backwards').click();
  await expect(page.getByTestId('block-order')).toHaveText(backwards);
});

test('cross mode: the decoder draws causal self-attention and cross-attention over the source', async ({ page }) => {
  await page.goto('/');
  await page.getByTestId('mode-cross').check();
  await page.getByTestId('page-block').click();
  await expect(page.getByTestId('block-view')).toHaveAttribute('data-mode', 'decoder');
  await expect(page.getByTestId('block-decoder-lead')).toBeVisible();
  // "I love machine learning": 4 target tokens; "我爱机器学习": 6 source tokens.
  const self = page.getByTestId('block-head-self-0');
  await expect(self).toHaveAttribute('data-blocked', '6');
  await expect(self).toHaveAttribute('data-upper-zero', 'true');
  await expect(page.getByTestId('block-head-self-0-canvas')).toHaveAttribute('data-cols', '4');
  const cross = page.getByTestId('block-head-cross-0');
  await expect(cross).toHaveAttribute('data-blocked', '0');
  await expect(cross).toHaveAttribute('data-upper-zero', 'false');
  await expect(page.getByTestId('block-head-cross-0-canvas')).toHaveAttribute('data-cols', '6');
  await expect(page.getByTestId('block-cross-input')).toHaveAttribute('data-rows', '4');
  // The memory: the source through the encoder, 6 × 64.
  await expect(page.getByTestId('block-memory')).toHaveAttribute('data-rows', '6');
  await expect(page.getByTestId('block-memory')).toHaveAttribute('data-cols', '64');
  await expect(page.getByTestId('block-perm-ffn')).toHaveAttribute('data-value', '0');
  expect(await num(page, 'block-perm-attention')).toBeGreaterThan(0.01);
});

test('bad input: heads that do not divide d, no text, 512 tokens', async ({ page }) => {
  await open(page, '#v1.' + Buffer.from(JSON.stringify({ u: 'block', bk: { h: 5 } })).toString('base64url'));
  await expect(page.getByTestId('block-heads-reason')).toContainText('5 heads do not divide d = 64');
  await expect(page.getByTestId('block-heads').locator('option[value="5"]')).toBeDisabled();
  await expect(page.getByTestId('block-error')).toBeVisible();
  await page.getByTestId('block-heads').selectOption('8');
  await expect(page.getByTestId('block-heads-reason')).toHaveCount(0);
  await expect(page.getByTestId('block-head-self-7')).toBeVisible();
  await page.getByTestId('sentence-input').fill('');
  await expect(page.getByTestId('block-error')).toBeVisible();
  const long = Array.from({ length: 512 }, (_, i) => `w${i}`).join(' ');
  await page.getByTestId('sentence-input').fill(long);
  await page.getByTestId('block-layers').selectOption('6');
  await expect(page.getByTestId('block-sizes')).toContainText('512 tokens', { timeout: 20_000 });
  await expect(page.getByTestId('block-residual-canvas')).toHaveAttribute('data-rows', '7', { timeout: 20_000 });
  await expect(page.getByTestId('block-perm-ffn')).toHaveAttribute('data-value', '0');
  await expect(page.locator('body')).not.toContainText('NaN');
});

test('a run too large for the page keeps the first tokens that fit and says so', async ({ page }) => {
  const t = Array.from({ length: 200 }, (_, i) => `w${i}`).join(' ');
  await open(page, '#v1.' + Buffer.from(JSON.stringify({ u: 'block', t, d: 512, h: 8, bk: { l: 6 } })).toString('base64url'));
  // 6 layers at d = 512, f = 2048: 6 · (3·2²⁰·t + 1024·t²) multiply-adds ≤ 5·10⁸ for t ≤ 26.
  await expect(page.getByTestId('block-limited')).toContainText('first 26 of 200 tokens');
  await expect(page.getByTestId('block-sizes')).toContainText('6 layers, d = 512, 4 heads of 128 features, f = 2048, 26 tokens');
  await expect(page.getByTestId('block-residual-canvas')).toHaveAttribute('data-cols', '26');
});

test('the block page in 中文: no English word, axe clean', async ({ page }) => {
  await open(page);
  await toChinese(page);
  await expect(page.getByTestId('block-view').locator('h2')).toHaveText('注意力外围的层块');
  await expect.poll(() => englishLeft(page), { timeout: 15_000 }).toEqual([]);
  expect(await seriousViolations(page)).toEqual([]);
});
