import { expect, test } from './fixtures';
import { englishLeft } from './english';

// The app in English and 中文 (src/i18n.rs): the switch changes every text and keeps the
// state; the language is remembered and rides in the link (`&lang=zh`); a first visit
// follows the browser's language.
//
// DOM contract: lang-en / lang-zh (aria-pressed), <html lang>.

async function toChinese(page: import('@playwright/test').Page) {
  await page.getByTestId('lang-zh').click();
  await expect(page.getByTestId('lang-zh')).toHaveAttribute('aria-pressed', 'true');
  await expect(page.locator('html')).toHaveAttribute('lang', 'zh-Hans');
}

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

test('no English word is left in 中文 mode on the lab page', async ({ page }) => {
  await page.goto('/');
  await toChinese(page);
  expect(await englishLeft(page)).toEqual([]);
});
