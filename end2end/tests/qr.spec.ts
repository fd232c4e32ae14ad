// The page's link as a QR code (src/shell/qr/, attnlab_link::qr): the code on screen is
// read back from a screenshot with jsQR, and the link it holds opens the same lab.
//
//   [data-testid=show-qr]       the link bar's "show QR code" button
//   dialog[data-testid=qr-dialog]  the modal dialog: svg[data-testid=qr-code],
//                               [qr-caption] (data-shown = current | step), [qr-link],
//                               or [qr-too-long] with [qr-show-step] or [qr-shorten]
//   [data-testid=qr-corner]     presentation mode's corner code (svg qr-corner-code)

import { type Locator, type Page } from '@playwright/test';
import jsQR from 'jsqr';
import { PNG } from 'pngjs';

import { seriousViolations } from './axe';
import { englishLeft } from './english';
import { expect, test, toChinese } from './fixtures';

const variant = (page: Page, i: number) => page.getByTestId('variant').nth(i);
const shareLink = (page: Page) => page.getByTestId('share-link').inputValue();

/**
 * The text of the QR code that `code` shows, read from a screenshot of it, once the code
 * on screen holds `expected`. The screenshot is taken again until then (the corner code
 * can be drawn again while presentation mode lays the page out), and the test fails
 * with the last reading when it never does.
 */
async function expectCode(code: Locator, expected: string): Promise<void> {
  await expect
    .poll(
      async () => {
        const png = PNG.sync.read(await code.screenshot());
        const pixels = new Uint8ClampedArray(png.data.buffer, png.data.byteOffset, png.data.length);
        return jsQR(pixels, png.width, png.height)?.data ?? 'no code jsQR can read in the screenshot';
      },
      { message: 'the QR code on screen, read back from a screenshot' },
    )
    .toBe(expected);
}

/**
 * About 1,200 characters of made-up words (a fixed pseudo-random sequence): the link of a
 * lab with this sentence is longer than a readable code holds, even compressed.
 */
function longSentence(): string {
  let seed = 12345;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
  const words = [];
  for (let w = 0; w < 170; w++) {
    let word = '';
    for (let i = 0; i < 3 + (next() % 6); i++) word += String.fromCharCode(97 + (next() % 26));
    words.push(word);
  }
  return words.join(' ');
}

test('the QR code holds the link, and the link opens the same lab', async ({ page, context }) => {
  await page.goto('/');
  const sentence = 'Students follow the lab on their phones';
  await page.getByTestId('sentence-input').fill(sentence);
  await variant(page, 1).getByTestId('temperature-value').fill('0.5');
  await variant(page, 1).getByTestId('temperature-value').press('Enter');
  await expect(variant(page, 1).getByTestId('temperature-value')).toHaveValue('0.5');
  const link = await shareLink(page);

  const button = page.getByTestId('show-qr');
  await button.focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByTestId('qr-dialog');
  await expect(dialog).toBeVisible();
  await expect(dialog).toHaveAccessibleName('Scan to open this lab');
  await expect(page.getByTestId('qr-caption')).toHaveAttribute('data-shown', 'current');
  // Served from 127.0.0.1: the caption says a phone cannot open this address, and how to
  // serve the lab so that it can.
  await expect(page.getByTestId('qr-caption')).toHaveAttribute('data-loopback', 'true');
  await expect(page.getByTestId('qr-caption')).toContainText('a phone cannot open it');
  await expect(page.getByTestId('qr-caption')).toContainText('cargo xtask serve --address 0.0.0.0');
  await expect(page.getByTestId('qr-link')).toHaveText(link);
  const code = page.getByTestId('qr-code');
  // Most of the screen: at least 60 % of the viewport's smaller side.
  const box = (await code.boundingBox())!;
  const viewport = page.viewportSize()!;
  expect(box.width).toBeGreaterThan(0.6 * Math.min(viewport.width, viewport.height));
  await expectCode(code, link);
  expect(await seriousViolations(page)).toEqual([]);

  // Esc closes it and the focus returns to the button.
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(button).toBeFocused();

  // What a phone opens.
  const phone = await context.newPage();
  await phone.goto(link);
  await expect(phone.getByTestId('sentence-input')).toHaveValue(sentence);
  await expect(variant(phone, 1).getByTestId('temperature-value')).toHaveValue('0.5');
  await expect(phone.getByTestId('heatmap').first()).toHaveAttribute('data-rendered-tokens', /^[1-9]/);
  expect(await shareLink(phone)).toBe(link);
});

test('in 中文 and the dark theme, the dialog speaks Chinese and its code, black on white, holds the Chinese link', async ({ page }) => {
  await page.goto('/');
  await toChinese(page);
  await page.getByTestId('theme').selectOption('dark');
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  const link = await shareLink(page);
  expect(link).toContain('lang=zh');
  await page.getByTestId('show-qr').click();
  await expect(page.getByTestId('qr-dialog')).toHaveAccessibleName('扫描二维码，打开本实验');
  await expect(page.getByTestId('qr-caption')).toContainText('手机无法打开');
  await expect(page.getByTestId('qr-code')).toHaveAccessibleName('本实验链接的二维码');
  expect(await englishLeft(page, '[data-testid=qr-dialog]')).toEqual([]);
  // The quiet zone and the light modules are white, the dark ones black, in the dark theme too.
  const corners = await page.getByTestId('qr-code').evaluate((svg) => {
    const cs = (el: Element | null) => (el ? getComputedStyle(el).fill : null);
    return { light: cs(svg.querySelector('rect')), dark: cs(svg.querySelector('path')) };
  });
  expect(corners).toEqual({ light: 'rgb(255, 255, 255)', dark: 'rgb(0, 0, 0)' });
  await expectCode(page.getByTestId('qr-code'), link);
  await page.getByTestId('qr-close').click();
  await expect(page.getByTestId('qr-dialog')).toBeHidden();
  await expect(page.getByTestId('show-qr')).toBeFocused();
});

test('presentation mode shows the code in a corner; a click enlarges it and Esc keeps presenting', async ({ page }) => {
  await page.goto('/');
  await page.getByTestId('sentence-input').fill('The projector shows the code in its corner');
  await expect(page.getByTestId('qr-corner')).toHaveCount(0);
  await page.getByTestId('present').click();
  await expect(page.locator('html')).toHaveAttribute('data-presenting', 'true');
  const corner = page.getByTestId('qr-corner');
  await expect(corner).toBeVisible();
  await expect(corner).toHaveAttribute('data-shown', 'current');
  await expect(page.getByTestId('qr-corner-loopback')).toContainText('phones cannot open it');
  const small = page.getByTestId('qr-corner-code');
  const box = (await small.boundingBox())!;
  expect(box.width).toBe(160);
  const viewport = page.viewportSize()!;
  expect(box.x + box.width).toBeGreaterThan(viewport.width - 40);
  expect(box.y + box.height).toBeGreaterThan(viewport.height - 40);
  // The page keeps a strip for the code: no figure lies under it, wherever the page is
  // scrolled (the code is fixed; the figures' columns end left of it).
  const rights = await page.locator('main canvas').evaluateAll((cs) =>
    cs.map((c) => c.getBoundingClientRect()).filter((r) => r.width > 0).map((r) => r.right));
  expect(rights.length).toBeGreaterThan(0);
  for (const right of rights) expect(right).toBeLessThanOrEqual(box.x);
  const link = await shareLink(page);
  await expectCode(small, link);

  await corner.click();
  const dialog = page.getByTestId('qr-dialog');
  await expect(dialog).toBeVisible();
  await expectCode(page.getByTestId('qr-code'), link);
  expect(await seriousViolations(page)).toEqual([]);
  // Esc closes the dialog, not presentation mode; a second Esc leaves it.
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(page.locator('html')).toHaveAttribute('data-presenting', 'true');
  await expect(corner).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(page.locator('html')).not.toHaveAttribute('data-presenting', /.+/);
  await expect(corner).toHaveCount(0);
});

test('a link too long for a readable code says so and asks for a shorter sentence, in both languages', async ({ page }) => {
  await page.goto('/');
  await page.getByTestId('sentence-input').fill(longSentence());
  const link = await shareLink(page);
  expect(link.length).toBeGreaterThan(520);
  await page.getByTestId('show-qr').click();
  const why = page.getByTestId('qr-too-long');
  await expect(why).toHaveText(
    `This link has ${link.length} characters: too many for a QR code that can be scanned from across a room (at most 520).`,
  );
  await expect(page.getByTestId('qr-shorten')).toBeVisible();
  await expect(page.getByTestId('qr-code')).toHaveCount(0);
  await expect(page.getByTestId('qr-show-step')).toHaveCount(0);
  expect(await seriousViolations(page)).toEqual([]);
  await page.keyboard.press('Escape');

  await toChinese(page);
  const zhLink = await shareLink(page);
  await page.getByTestId('show-qr').click();
  await expect(why).toHaveText(
    `这个链接有 ${zhLink.length} 个字符，太长，生成的二维码在教室里难以扫描（最多 520 个字符）。`,
  );
  await expect(page.getByTestId('qr-shorten')).toHaveText('缩短句子（或删除一个变体）即可让链接变短。');
  expect(await englishLeft(page, '[data-testid=qr-dialog]')).toEqual([]);

  // In presentation mode the corner says there is no code.
  await page.keyboard.press('Escape');
  await page.getByTestId('present').click();
  await expect(page.getByTestId('qr-corner')).toHaveText('链接太长，无法生成二维码');
  await expect(page.getByTestId('qr-corner-code')).toHaveCount(0);
});

test('in a lesson, a link too long for a code offers the lesson step\'s link, which opens the step', async ({ page, context }) => {
  await page.goto('/#lesson=masks');
  const bar = page.getByTestId('lesson-bar');
  await expect(bar).toHaveAttribute('data-step', /.+/);
  const step = (await bar.getAttribute('data-step'))!;
  const stepSentence = await page.getByTestId('sentence-input').inputValue();
  await page.getByTestId('sentence-input').fill(longSentence());
  const link = await shareLink(page);
  expect(link).toContain('lesson=masks/');
  expect(link.length).toBeGreaterThan(520);

  await page.getByTestId('show-qr').click();
  await expect(page.getByTestId('qr-too-long')).toContainText(`${link.length} characters`);
  await expect(page.getByTestId('qr-shorten')).toHaveCount(0);
  await page.getByTestId('qr-show-step').click();
  await expect(page.getByTestId('qr-caption')).toHaveAttribute('data-shown', 'step');
  const stepLink = await page.getByTestId('qr-link').innerText();
  await expectCode(page.getByTestId('qr-code'), stepLink);
  expect(stepLink.split('#')[0]).toBe(link.split('#')[0]);
  expect(stepLink).toMatch(new RegExp(`#lesson=masks/${step}&lang=en$`));
  await page.keyboard.press('Escape');

  // The corner of presentation mode shows the step's code, named as such.
  await page.getByTestId('present').click();
  await expect(page.getByTestId('qr-corner')).toHaveAttribute('data-shown', 'step');
  await expectCode(page.getByTestId('qr-corner-code'), stepLink);
  await page.keyboard.press('Escape');

  // A phone opens the step as the lesson sets it.
  const phone = await context.newPage();
  await phone.goto(stepLink);
  await expect(phone.getByTestId('lesson-bar')).toHaveAttribute('data-step', step);
  await expect(phone.getByTestId('sentence-input')).toHaveValue(stepSentence);
});

test('a link by a network name says that scanning opens the lab on a phone, with no loopback warning', async ({ baseURL }) => {
  // The same page under a name that is not loopback (resolved to this machine by the
  // browser alone): what a class sees when the lab is served on the network.
  const { chromium } = await import('@playwright/test');
  const browser = await chromium.launch({
    executablePath: process.env.ATTNLAB_CHROMIUM ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync',
      '--host-resolver-rules=MAP lab.classroom.test 127.0.0.1',
    ],
  });
  try {
    const page = await browser.newPage();
    const port = new URL(baseURL!).port;
    await page.goto(`http://lab.classroom.test:${port}/`);
    await expect(page.getByTestId('heatmap').first()).toHaveAttribute('data-rendered-tokens', '11');
    await page.getByTestId('show-qr').click();
    await expect(page.getByTestId('qr-caption')).toHaveText('Scanning it opens this lab on a phone, as it is now.');
    await expect(page.getByTestId('qr-caption')).not.toHaveAttribute('data-loopback', 'true');
    await page.getByTestId('qr-close').click();
    await page.getByTestId('present').click();
    await expect(page.getByTestId('qr-corner')).toBeVisible();
    await expect(page.getByTestId('qr-corner-loopback')).toHaveCount(0);
  } finally {
    await browser.close();
  }
});
