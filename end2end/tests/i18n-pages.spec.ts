import { type Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { englishLeft } from './english';

// The explanatory pages in English and 中文 (src/pages/, attnlab_pages): every text,
// knob, figure and read-out follows the language switch, and what a person does in
// Chinese answers in Chinese.
//
// DOM contract: lang-en / lang-zh, the page tabs page-steps … page-complexity, and each
// page's own test ids (steps.spec.ts, positions.spec.ts, scaling.spec.ts, linear.spec.ts,
// lines.spec.ts, complexity.spec.ts, decoding.spec.ts, why-attention.spec.ts).

/** One page: its tab, its view, and an element whose text is its heading. */
const PAGES: { tab: string; view: string; heading: (page: Page) => ReturnType<Page['locator']>; en: string; zh: string }[] = [
  {
    tab: 'page-steps',
    view: 'steps-view',
    heading: (page) => page.getByTestId('steps-title'),
    en: 'Input X',
    zh: '输入 X',
  },
  {
    tab: 'page-block',
    view: 'block-view',
    heading: (page) => page.getByTestId('block-view').locator('h2'),
    en: 'The block around attention',
    zh: '注意力外围的层块',
  },
  {
    tab: 'page-positions',
    view: 'positions-page',
    heading: (page) => page.getByTestId('positions-page').locator('h2'),
    en: 'Position encodings',
    zh: '位置编码',
  },
  {
    tab: 'page-scaling',
    view: 'scaling-page',
    heading: (page) => page.getByTestId('scaling-page').locator('h2'),
    en: 'Why divide by \u221ad_k?',
    zh: '为什么要除以 \u221ad_k？',
  },
  {
    tab: 'page-linear',
    view: 'linear-page',
    heading: (page) => page.getByTestId('linear-page').locator('h2'),
    en: 'Linear attention: the same Q and K',
    zh: '线性注意力：同样的 Q 和 K',
  },
  {
    tab: 'page-decoding',
    view: 'decoding-view',
    heading: (page) => page.getByTestId('decoding-view').locator('h2'),
    en: 'Decoding: the KV cache',
    zh: '解码：KV 缓存',
  },
  {
    tab: 'page-lines',
    view: 'lines-view',
    heading: (page) => page.getByTestId('lines-view').locator('.explain-lead'),
    en: 'Every query token on the left',
    zh: '左边的每个查询词元',
  },
  {
    tab: 'page-complexity',
    view: 'complexity-view',
    heading: (page) => page.getByTestId('complexity-view').locator('h2'),
    en: 'Complexity, measured in this browser',
    zh: '复杂度：在这个浏览器中实测',
  },
];

async function open(page: Page, tab: string, view: string) {
  await page.goto('/');
  await expect(page.getByTestId('token-strip').getByTestId('token')).toHaveCount(11);
  await page.getByTestId(tab).click();
  await expect(page.getByTestId(view)).toBeVisible();
}

async function toLang(page: Page, lang: 'en' | 'zh') {
  await page.getByTestId(`lang-${lang}`).click();
  await expect(page.getByTestId(`lang-${lang}`)).toHaveAttribute('aria-pressed', 'true');
}

/** Whether `text` has Chinese characters. */
const chinese = (text: string | null) => /[\u4e00-\u9fff]/.test(text ?? '');

for (const p of PAGES) {
  test(`no English word is left in 中文 on ${p.tab}, and English comes back`, async ({ page }) => {
    await open(page, p.tab, p.view);
    await expect(p.heading(page)).toContainText(p.en);
    await toLang(page, 'zh');
    await expect(p.heading(page)).toContainText(p.zh);
    await expect.poll(() => englishLeft(page), { timeout: 15_000 }).toEqual([]);
    await toLang(page, 'en');
    await expect(p.heading(page)).toContainText(p.en);
  });
}

test('the decoding page and why attention in 中文: a preset, a clamped value and the figure answer in Chinese', async ({ page }) => {
  await open(page, 'page-decoding', 'decoding-view');
  await toLang(page, 'zh');
  await page.getByTestId('kv-preset').selectOption('deepseek-v2');
  await expect(page.getByTestId('kv-kind')).toContainText('潜向量缓存');
  await page.getByTestId('kv-layers').fill('0');
  await page.getByTestId('kv-layers').press('Enter');
  await expect(page.getByTestId('kv-note')).toHaveText('层数 L：0 超出 1 … 512；已设为 1。');
  await expect(page.getByTestId('kv-chart')).toHaveAttribute('aria-label', /KV 缓存/);
  await expect.poll(() => englishLeft(page)).toEqual([]);
  await page.getByTestId('page-complexity').click();
  await expect(page.getByTestId('why-attention')).toBeVisible();
  await page.getByTestId('why-layers').fill('3');
  await page.getByTestId('why-layers').press('Enter');
  await expect(page.getByTestId('why-reach')).toContainText('3 层之后哪些输入能到达输出 8');
  await expect(page.getByTestId('why-row-recurrent')).toContainText('永远到达不了');
  await expect.poll(() => englishLeft(page)).toEqual([]);
});

test('the steps page in 中文: stepping, a stage chip and the read-out answer in Chinese', async ({ page }) => {
  await open(page, 'page-steps', 'steps-view');
  await toLang(page, 'zh');
  await page.getByTestId('steps-next').click();
  await expect(page.getByTestId('steps-title')).toHaveText('查询 Q');
  await expect(page.getByTestId('steps-note')).toContainText('每个查询词元在 X 中的行');
  await page.getByTestId('steps-chip').filter({ hasText: 'softmax 权重' }).click();
  await expect(page.getByTestId('steps-stage')).toHaveAttribute('data-stage', 'Softmax');
  await expect(page.getByTestId('steps-row')).toContainText('这一行：');
  // The read-out keeps the tokens as typed, marked as not to be translated.
  await expect(page.getByTestId('steps-row').locator('[translate="no"]').first()).toContainText('\u201cThe\u201d');
  // The same stage and query in English after the switch.
  await toLang(page, 'en');
  await expect(page.getByTestId('steps-title')).toHaveText('Softmax weights');
  await expect(page.getByTestId('steps-row')).toContainText('Row \u201cThe\u201d (0) of Softmax weights');
  await expect(page.getByTestId('steps-canvas')).toHaveAttribute('aria-label', /Softmax weights/);
});

test('the linear page in 中文: picking a kernel answers in Chinese', async ({ page }) => {
  await open(page, 'page-linear', 'linear-page');
  await toLang(page, 'zh');
  await page.getByTestId('linear-kind').selectOption('relu');
  await expect(page.getByTestId('kernel-panel').locator('h3')).toHaveText('同样的 Q、K 上 softmax 与 relu 的对比');
  await expect(page.getByTestId('rank-statement')).toContainText('线性注意力：');
  await expect(page.getByTestId('rnn-stepper').locator('h3')).toHaveText('作为 RNN 的因果 relu 注意力');
  await page.getByTestId('rnn-next').click();
  await expect(page.getByTestId('rnn-step')).toContainText('吸收');
  await expect(page.getByTestId('causality-linformer')).toContainText('不能做成因果的');
  await expect.poll(() => englishLeft(page)).toEqual([]);
});

test('the positions page in 中文: a refused dimension and the shuffle answer in Chinese', async ({ page }) => {
  await open(page, 'page-positions', 'positions-page');
  await toLang(page, 'zh');
  await page.getByTestId('pos-dims').fill('99');
  await page.getByTestId('pos-dims').press('Enter');
  const why = page.getByTestId('pe-curves-figure').getByTestId('why');
  await expect(why).toContainText('维度 99 不存在');
  // The reason follows the language while it is shown.
  await toLang(page, 'en');
  await expect(why).toContainText('Dimension 99 does not exist');
  await toLang(page, 'zh');
  await page.getByTestId('bow-shuffle').click();
  await expect(page.getByTestId('bow-order')).toContainText('顺序：');
  await expect(page.getByTestId('bow-on')).toContainText('开启位置编码');
  await expect.poll(() => englishLeft(page)).toEqual([]);
});

test('the lines page in 中文: a focused token reads out in Chinese', async ({ page }) => {
  await open(page, 'page-lines', 'lines-view');
  await toLang(page, 'zh');
  await page.getByTestId('lines-canvas').focus();
  await page.keyboard.press('ArrowDown');
  await expect(page.getByTestId('lines-readout')).toContainText('最关注');
  await expect(page.getByTestId('lines-head-readout').first()).toContainText('头');
  await expect.poll(() => englishLeft(page)).toEqual([]);
});

test('the complexity page in 中文: a run reports in Chinese', async ({ page }) => {
  test.setTimeout(120_000);
  await open(page, 'page-complexity', 'complexity-view');
  await toLang(page, 'zh');
  await expect(page.getByTestId('complexity-status')).toContainText('尚未开始');
  await page.getByTestId('complexity-max-n').selectOption('2048');
  await page.getByTestId('complexity-start').click();
  const status = page.getByTestId('complexity-status');
  await expect(status).toHaveAttribute('data-state', 'finished', { timeout: 90_000 });
  await expect(status).toContainText('完成：共测得');
  await expect(page.getByTestId('complexity-slope-softmax')).toContainText('斜率');
  await expect(page.getByTestId('complexity-crossover')).toContainText('交叉点');
  expect(chinese(await page.getByTestId('complexity-start').textContent())).toBe(true);
  await expect.poll(() => englishLeft(page)).toEqual([]);
  // The finished run's words follow the switch back.
  await toLang(page, 'en');
  await expect(status).toContainText('points measured');
});
