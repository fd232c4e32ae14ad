import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Page } from '@playwright/test';
import { expect, test, throttle, toChinese } from './fixtures';
import { englishLeft } from './english';

// The real model's page, the neuron view, the contributions and brought tensors in 中文
// (src/pages/model/, src/neuron/, src/shell/bring_tensors.rs): no English word is left
// but the kept technical names, tokens and typed text (inside translate="no"); the
// figures' titles come from the lab in the page's language; a refused file's message
// is said in the page's language and again in the other one after a switch.

const MINILM = 'model/all-minilm-l6-v2.q8.safetensors';
const E5 = 'model/multilingual-e5-small.q4.safetensors';
const dist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'dist');
const have = (asset: string) => existsSync(path.join(dist, asset));

/** Clicks the first tile of the atlas until the neuron view opens. */
async function openNeuronView(page: Page, rows: number) {
  const atlas = page.getByTestId('atlas');
  const box = (await atlas.boundingBox())!;
  const panel = page.getByTestId('neuron-panel');
  for (const f of [0.6, 0.5, 0.7, 0.4]) {
    await atlas.click({ position: { x: (box.width / 12) * 0.5, y: (box.height / rows) * f } });
    if (await panel.isVisible()) break;
  }
  await expect(panel).toBeVisible();
  return panel;
}

test.describe('the real model in 中文', () => {
  test.describe.configure({ timeout: 180_000 });

  test('MiniLM: the page, the neuron view and the contributions have no English left', async ({ page }) => {
    test.skip(!have(MINILM), `skipped: dist/${MINILM} is missing (run cargo xtask model)`);
    await page.goto('/');
    await toChinese(page);
    await page.getByTestId('model-minilm-l6').check();
    await expect(page.getByTestId('model-choice-status')).toHaveText('MiniLM-L6: 已就绪', { timeout: 60_000 });
    await expect(page.getByTestId('model-status')).toContainText('MiniLM-L6（真实模型） 已就绪');
    const atlas = page.getByTestId('atlas');
    await expect(atlas).toHaveAttribute('data-rendered-tokens', '15', { timeout: 60_000 });
    await expect(page.getByTestId('model-run-info')).toContainText('15 个词元经过 6 层');
    await page.getByTestId('search-example').click();
    await expect(page.getByTestId('rank-row')).toHaveCount(72);
    await expect(page.getByTestId('rank-row').first()).toContainText('层');
    await expect(page.getByTestId('search-caution')).toContainText('注意力权重');
    await expect(page.getByTestId('relevance-note')).toContainText('注意力展开');

    // The neuron view of an atlas cell, then the contributions.
    const panel = await openNeuronView(page, 6);
    await expect(panel.getByTestId('neuron-title')).toContainText('神经元视图 · 第 0 层 · 头 0 · 查询');
    await expect(panel.getByTestId('neuron-steps')).toContainText('对 32 个维度求和');
    await expect(panel.getByTestId('neuron-weight')).toContainText('权重 α =');
    await page.getByTestId('measure-contribution').click();
    await expect(page.getByTestId('measure-note')).toContainText('贡献');
    await expect(page.getByTestId('share-row')).toHaveCount(6);
    await expect(page.getByTestId('shares')).toContainText('逐层对比权重与贡献');

    // Flow, then the [CLS]/[SEP] switch: their texts too.
    await page.getByTestId('relevance-flow').check();
    await expect(page.getByTestId('relevance-note')).toContainText('管道网络', { timeout: 60_000 });
    await page.getByTestId('hide-special').check();
    await expect(page.getByTestId('hide-special').locator('..')).toContainText('隐藏 [CLS] 和 [SEP]');

    expect(await englishLeft(page)).toEqual([]);

    // Back to English: the same page, in English again.
    await page.getByTestId('lang-en').click();
    await expect(page.getByTestId('model-run-info')).toContainText('15 tokens through 6 layers');
    await expect(panel.getByTestId('neuron-title')).toContainText('Neuron view · layer 0 · head 0 · query');
  });

  test('multilingual-E5-small with a sentence pair has no English left', async ({ page }) => {
    test.skip(!have(E5), `skipped: dist/${E5} is missing (run cargo xtask model)`);
    await page.goto('/');
    await toChinese(page);
    await page.getByTestId('model-multilingual-e5-small').check();
    await expect(page.getByTestId('model-choice-status')).toHaveText('multilingual-E5-small: 已就绪', {
      timeout: 90_000,
    });
    await page.getByTestId('pair-example').click();
    await expect(page.getByTestId('crossing-row').first()).toBeVisible({ timeout: 90_000 });
    await expect(page.getByTestId('pair-panel')).toContainText('权重跨句最多的头（共 144 个）');
    await expect(page.getByTestId('alignment-note')).toContainText('编码器');
    await expect(page.getByTestId('model-run-info')).toContainText('经过 12 层', { timeout: 90_000 });
    await expect(page.getByTestId('model-caveat')).toContainText('按模型的未知词片读入');
    expect(await englishLeft(page)).toEqual([]);

    // A character the build does not ship is read as <unk> and named, in 中文 with no
    // English left, and in English after a switch.
    await page.locator('#sentence-input').fill('我的猫🐱');
    const note = page.getByTestId('model-replaced');
    await expect(note).toContainText('因此 “🐱” 被当作模型的未知词片 <unk> 读入', { timeout: 90_000 });
    expect(await englishLeft(page)).toEqual([]);
    await page.getByTestId('lang-en').click();
    await expect(note).toContainText("so “🐱” was read as the model's unknown piece <unk>");
  });

  test('the load status and its progress are said in 中文', async ({ page, context }) => {
    test.skip(!have(MINILM), `skipped: dist/${MINILM} is missing (run cargo xtask model)`);
    await page.goto('/');
    await toChinese(page);
    await page.getByTestId('page-model').click();
    await expect(page.getByTestId('model-load')).toHaveText('加载 MiniLM-L6（真实模型）（约 23.2 MB）');
    await throttle(context, page, 4e6);
    await page.getByTestId('model-load').click();
    const status = page.getByTestId('model-status');
    await expect(status).toContainText(/正在下载 MiniLM-L6（真实模型）：[\d.]+ MB \/ 23\.2 MB/);
    await expect(page.getByTestId('model-progress')).toHaveAttribute('aria-label', '下载进度');
    await expect(page.getByTestId('model-choice-status')).toContainText(/MiniLM-L6: 正在加载/);
    expect(await englishLeft(page)).toEqual([]);
    await page.getByTestId('model-cancel').click();
    await expect(status).toHaveText('加载已取消；没有保留任何内容。');
    await expect(page.getByTestId('model-choice-status')).toHaveText('MiniLM-L6: 已取消');
    await throttle(context, page, -1);
  });
});

test("a refused file's message is said in 中文, and in English after switching back", async ({ page }) => {
  await page.goto('/');
  await toChinese(page);
  await page
    .getByTestId('bring-input')
    .setInputFiles([{ name: 'q.npy', mimeType: 'application/octet-stream', buffer: Buffer.from('hello') }]);
  const error = page.getByTestId('bring-error');
  await expect(error).toHaveText('q.npy：不是 NumPy 的 .npy 文件（开头没有 NumPy 的签名字节）');
  expect(await englishLeft(page)).toEqual([]);
  await page.getByTestId('lang-en').click();
  await expect(error).toHaveText('q.npy: is not a NumPy .npy file (it does not start with the \\x93NUMPY signature)');
  await toChinese(page);
  await expect(error).toContainText('不是 NumPy 的 .npy 文件');
});
