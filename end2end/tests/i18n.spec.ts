import { DEFAULT_SENTENCE, expect, test, toChinese } from './fixtures';
import { englishLeft } from './english';

// The app in English and 中文 (src/i18n.rs): the switch changes every text and keeps the
// state; the language is remembered and rides in the link (`&lang=zh`); a first visit
// follows the browser's language.
//
// DOM contract: lang-en / lang-zh (aria-pressed), <html lang>.

test('switching to 中文 keeps the sentence, the variants and the selection', async ({ page }) => {
  await page.goto('/');
  const input = page.getByTestId('sentence-input');
  await input.fill('the cat sat on the mat');
  await page.getByTestId('add-variant').click();
  await expect(page.getByTestId('variant-count')).toHaveText('3');
  const linkBefore = await page.getByTestId('share-link').inputValue();
  await toChinese(page);
  await expect(input).toHaveValue('the cat sat on the mat');
  await expect(page.getByTestId('variant-count')).toHaveText('3');
  await expect(page.getByTestId('add-variant')).toContainText('添加变体');
  // The same state, in another language.
  const link = await page.getByTestId('share-link').inputValue();
  expect(link).toMatch(/&lang=zh$/);
  expect(link.replace(/&lang=zh$/, '')).toBe(linkBefore.replace(/&lang=en$/, ''));
  await page.getByTestId('lang-en').click();
  await expect(page.getByTestId('add-variant')).toContainText('add variant');
  await expect(input).toHaveValue('the cat sat on the mat');
});

test('the language is remembered and a link names it', async ({ page, browser }) => {
  await page.goto('/');
  await toChinese(page);
  await page.reload();
  await expect(page.getByTestId('lang-zh')).toHaveAttribute('aria-pressed', 'true');
  const link = await page.getByTestId('share-link').inputValue();
  // A link opened elsewhere opens in its language, whatever the browser speaks.
  const other = await browser.newPage({ locale: 'en-US' });
  await other.goto(link.replace(/^.*#/, '/#'));
  await expect(other.locator('html')).toHaveAttribute('lang', 'zh-Hans');
  await other.close();
  const english = await browser.newPage({ locale: 'zh-CN' });
  await english.goto('/#' + link.replace(/^.*#/, '').replace(/lang=zh$/, 'lang=en'));
  await expect(english.locator('html')).toHaveAttribute('lang', 'en');
  await english.close();
});

test("a first visit follows the browser's language", async ({ browser }) => {
  for (const [locale, tag] of [['zh-CN', 'zh-Hans'], ['en-GB', 'en'], ['fr-FR', 'en']]) {
    const page = await browser.newPage({ locale });
    await page.goto('/');
    await expect(page.locator('html')).toHaveAttribute('lang', tag);
    await page.close();
  }
});

test('a first visit in 中文 opens on a Chinese sentence; a shared link keeps its own', async ({ browser }) => {
  const page = await browser.newPage({ locale: 'zh-CN' });
  await page.goto('/');
  await expect(page.locator('#sentence-input')).toHaveValue('小猫坐在垫子上，因为它很累。');
  await expect(page.getByTestId('heatmap').first()).toHaveAttribute('data-rendered-tokens', '14');
  // The link carries the sentence, so it opens the same in any language.
  await page.waitForTimeout(400);
  const link = await page.getByTestId('share-link').inputValue();
  const other = await browser.newPage({ locale: 'en-US' });
  await other.goto(link.replace(/^.*#/, '/#').replace(/lang=zh$/, 'lang=en'));
  await expect(other.locator('#sentence-input')).toHaveValue('小猫坐在垫子上，因为它很累。');
  await other.close();
  // A link with the lab's defaults opens on the sentence its sender saw.
  await page.goto('/#v1.e30&lang=zh');
  await expect(page.locator('#sentence-input')).toHaveValue(DEFAULT_SENTENCE);
  await page.close();
});

test('no English word is left in 中文 mode on the lab page', async ({ page }) => {
  await page.goto('/');
  await toChinese(page);
  expect(await englishLeft(page)).toEqual([]);
});

// The lab page's own parts: each variant's name, buttons, knobs, figures and read-outs,
// the comparison, the tabs, the sentence box, the token strips and the model settings.
const LAB_PARTS = [
  '.variant-header',
  '.variant-knobs',
  'fieldset.masks',
  '[data-testid=variant] .heatmap-frame',
  '[data-testid=variant] .export',
  '[data-testid=cell-info]',
  '[data-testid=head-grid]',
  '.average > summary',
  '[data-testid=compare]',
  '.variants-bar',
  '.page-nav',
  '[data-testid=mode]',
  '.panel-input > .field-label',
  '.example-picker',
  '[data-testid=token-strip]',
  '[data-testid=source-token-strip]',
  '[data-testid=model-settings]',
  '[data-testid=notice]',
].join(', ');

test('four variants and their difference, all in 中文', async ({ page }) => {
  await page.goto('/');
  await toChinese(page);
  await page.getByTestId('add-variant').click();
  await page.getByTestId('add-variant').click();
  await expect(page.getByTestId('variant-count')).toHaveText('4');
  // The fourth variant is causal; the comparison shows every variant's names.
  const fourth = page.getByTestId('variant').nth(3);
  await fourth.getByTestId('mask-causal').check();
  await page.getByTestId('compare-b').selectOption('3');
  await page.getByTestId('compare-what').selectOption('average');
  await expect(page.getByTestId('compare-table')).toBeVisible();
  await expect(page.getByTestId('difference-heatmap')).toHaveAttribute('aria-label', /各头的平均/);
  await expect(page.getByTestId('compare')).toContainText('比较两个变体');
  // The add button says why it is disabled, in Chinese.
  await expect(page.getByTestId('add-variant')).toBeDisabled();
  await expect(page.getByTestId('add-variant')).toHaveAttribute('title', '实验室最多并排比较 4 个变体');
  expect(await englishLeft(page, LAB_PARTS)).toEqual([]);
});

test("a disabled knob's reason is in 中文, and back in English", async ({ page }) => {
  await page.goto('/');
  await toChinese(page);
  const a = page.getByTestId('variant').first();
  await a.getByTestId('attention').selectOption('linformer');
  const causal = a.getByTestId('mask-causal');
  await expect(causal).toBeDisabled();
  const why = a.locator('.knob', { has: page.getByTestId('mask-causal') }).getByTestId('why');
  await expect(why).toHaveText(/^Linformer无法应用因果掩码：.*。$/);
  await expect(a.getByTestId('score')).toBeDisabled();
  await expect(a.locator('.knob', { has: page.getByTestId('score') }).getByTestId('why'))
    .toHaveText('Linformer 总是用缩放点积 q·k\'/√d_k 打分。');
  expect(await englishLeft(page, LAB_PARTS)).toEqual([]);
  await page.getByTestId('lang-en').click();
  await expect(why).toHaveText(/^Linformer cannot apply a causal mask: .*\.$/);
});

test("a repaired link's notice is in 中文, and in English after a switch", async ({ page }) => {
  const repaired = Buffer.from(JSON.stringify({ h: 5 })).toString('base64url');
  await page.goto(`/#v1.${repaired}&lang=zh`);
  const notice = page.getByTestId('notice');
  await expect(notice).toContainText('这个链接中有些设置超出范围，已被修改：5 个头不能整除 d_model = 64，因此改为 4 个头。');
  expect(await englishLeft(page, '[data-testid=notice]')).toEqual([]);
  await page.getByTestId('lang-en').click();
  await expect(notice).toContainText('5 heads do not divide d_model = 64, so there are 4');
  await page.getByTestId('lang-zh').click();
  await expect(notice).toContainText('5 个头不能整除');
});

test('cross-attention (encoder–decoder) in 中文', async ({ page }) => {
  await page.goto('/');
  await toChinese(page);
  await page.getByTestId('mode-cross').check();
  await expect(page.getByTestId('source-token-strip')).toBeVisible();
  await expect(page.locator('label[for=sentence-input]')).toHaveText('目标句（查询，解码器的词）');
  await expect(page.getByTestId('heatmap')).toHaveAttribute('data-rendered-tokens', '4');
  expect(await englishLeft(page, LAB_PARTS)).toEqual([]);
  // The mode's names fit the sidebar in both languages.
  for (const lang of ['zh', 'en']) {
    await page.getByTestId(`lang-${lang}`).click();
    const mode = await page.getByTestId('mode').boundingBox();
    const side = await page.locator('.panel-input').boundingBox();
    expect(mode!.x + mode!.width).toBeLessThanOrEqual(side!.x + side!.width + 0.5);
    for (const label of await page.getByTestId('mode').locator('label').all()) {
      const box = await label.boundingBox();
      expect(box!.x + box!.width, lang).toBeLessThanOrEqual(side!.x + side!.width + 0.5);
    }
  }
});

test("the heatmap's label and figure follow the language", async ({ page }) => {
  await page.goto('/');
  const heatmap = page.getByTestId('heatmap');
  await expect(heatmap).toHaveAttribute('data-rendered-tokens', '11');
  await expect(heatmap).toHaveAttribute('aria-label', /^A · scaled dot-product softmax · Head 0 · 4 heads · d_model 64: 11 query tokens \(rows\) by 11 keys/);
  const english = await heatmap.screenshot();
  await toChinese(page);
  await expect(heatmap).toHaveAttribute('aria-label', /^A · 缩放点积 softmax · 头 0 · 4 个头 · d_model 64：11 个查询词元（行）× 11 个键（列）。/);
  // The figure is painted again with its Chinese words.
  await expect.poll(async () => Buffer.compare(await heatmap.screenshot(), english)).not.toBe(0);
  await expect(page.getByTestId('head-grid').first()).toHaveAttribute('aria-label', /^全部 4 个头的小图/);
  await heatmap.focus();
  await page.keyboard.press('ArrowRight');
  await expect(page.getByTestId('cell-info').first()).toContainText('查询“The”（0）→ 键“animal”（1）：权重');
});

test('the Export menu in 中文', async ({ page }) => {
  await page.goto('/');
  await toChinese(page);
  await expect(page.getByTestId('heatmap')).toHaveAttribute('data-rendered-tokens', '11');
  const menu = page.getByTestId('heatmap-export-menu');
  await menu.locator('summary').click();
  await expect(menu.locator('summary')).toHaveText('导出');
  await expect(page.getByTestId('heatmap-export-copy')).toHaveText('复制图像');
  await expect(page.getByTestId('heatmap-export-png')).toHaveAttribute('title', '两倍于页面分辨率的 PNG');
  const download = page.waitForEvent('download');
  await page.getByTestId('heatmap-export-json').click();
  const name = (await download).suggestedFilename();
  await expect(page.getByTestId('heatmap-export-status')).toHaveText(`已保存 ${name}。`);
  expect(await englishLeft(page, '[data-testid=heatmap-export-menu]')).toEqual([]);
  await page.getByTestId('lang-en').click();
  await expect(page.getByTestId('heatmap-export-status')).toHaveText(`Saved ${name}.`);
});
