import { type Page } from '@playwright/test';
import { seriousViolations } from './axe';
import { expect, test, toChinese } from './fixtures';

// Phones and tablets (style/phone.css, attnlab_plot's layout under 420 px): every page
// fits the screen's width, its first figure starts on the first screen, the lab's
// matrix takes the phone's width, one variant is shown at a time (or their
// difference), a tap reads a cell, a swipe turns a lesson's step.
//
// DOM contract: [data-testid=variant-switch] with variant-switch-tab buttons and
// variant-switch-difference; canvas[data-cells] = "x0 y0 x1 y1" in backing pixels.

const PHONE = { width: 390, height: 844 };
const PAGES = ['lab', 'steps', 'block', 'positions', 'scaling', 'linear', 'decoding', 'lines', 'complexity'];

/** How far the page reaches sideways, and the top of its first drawn figure: the
 *  highest on the screen, since a phone's layout may put a figure first that comes later
 *  in the document (style/phone.css: the Decoding page's chart before its steppers). */
async function fit(page: Page) {
  return page.evaluate(() => {
    const figures = [...document.querySelectorAll('.lab-main canvas')]
      .filter((c) => {
        const r = c.getBoundingClientRect();
        return r.width > 0 && r.height > 0;
      })
      .sort((a, b) => a.getBoundingClientRect().top - b.getBoundingClientRect().top);
    const first = figures[0]?.getBoundingClientRect();
    return {
      width: document.documentElement.scrollWidth,
      firstFigureTop: first ? first.top + window.scrollY : null,
      testid: figures[0]?.getAttribute('data-testid'),
    };
  });
}

/** The matrix's width in CSS pixels, from where the canvas says its cells are. */
async function matrixWidth(page: Page, testid: string) {
  const cells = await page.getByTestId(testid).first().getAttribute('data-cells');
  const [x0, , x1] = cells!.split(' ').map(Number);
  return (x1 - x0) / (await page.evaluate(() => window.devicePixelRatio));
}

test.describe('on a phone', () => {
  test.use({ viewport: PHONE, deviceScaleFactor: 2, isMobile: true, hasTouch: true });

  for (const lang of ['en', 'zh']) {
    test(`every page fits the width and shows its figure on the first screen, in ${lang}`, async ({ page }) => {
      test.setTimeout(120_000);
      await page.goto('/');
      if (lang === 'zh') await toChinese(page);
      await expect(page.getByTestId('heatmap')).toHaveAttribute('data-rendered-tokens', '11');
      const found: string[] = [];
      for (const name of PAGES) {
        await page.getByTestId(`page-${name}`).click();
        await expect(page.getByTestId(`page-${name}`)).toHaveAttribute('aria-selected', 'true');
        await page.waitForTimeout(300);
        const f = await fit(page);
        expect(f.width, `${name}: page width`).toBeLessThanOrEqual(PHONE.width);
        expect(f.firstFigureTop, `${name}: first figure (${f.testid})`).not.toBeNull();
        expect(f.firstFigureTop!, `${name}: first figure (${f.testid})`).toBeLessThan(PHONE.height);
        await page.screenshot({ path: `test-results/phone-${name}-${lang}.png` });
        found.push(...(await seriousViolations(page)).map((v) => `${name}: ${v}`));
      }
      expect(found, 'axe: serious or critical violations on a phone').toEqual([]);
      // A lesson's step and its figure share the first screen.
      await page.goto('about:blank');
      await page.goto(`/#lesson=masks&lang=${lang}`);
      await expect(page.getByTestId('lesson-bar')).toBeVisible();
      await page.evaluate(() => window.scrollTo(0, 0));
      const f = await fit(page);
      expect(f.width).toBeLessThanOrEqual(PHONE.width);
      expect(f.firstFigureTop!, `lesson: first figure (${f.testid})`).toBeLessThan(PHONE.height);
    });
  }

  test('the real model\'s page fits and starts with its atlas', async ({ page }) => {
    test.setTimeout(120_000);
    await page.goto('/');
    await page.getByTestId('model-minilm-l6').check();
    await expect(page.getByTestId('atlas')).toHaveAttribute('data-rendered-tokens', '15', { timeout: 60_000 });
    await page.evaluate(() => window.scrollTo(0, 0));
    const f = await fit(page);
    expect(f.width).toBeLessThanOrEqual(PHONE.width);
    expect(f.testid).toBe('atlas');
    expect(f.firstFigureTop!).toBeLessThan(PHONE.height);
    // A layer's 12 heads on two rows of 6: each row of tiles is tall enough to tap.
    const atlas = (await page.getByTestId('atlas').boundingBox())!;
    expect(atlas.height / (6 * 2)).toBeGreaterThanOrEqual(44);
    expect(atlas.width / 6).toBeGreaterThanOrEqual(44);
  });

  test('the lab\'s matrix takes four fifths of the width, and a tap reads a cell', async ({ page }) => {
    await page.goto('/');
    const heatmap = page.getByTestId('heatmap');
    await expect(heatmap).toHaveAttribute('data-rendered-tokens', '11');
    expect(await matrixWidth(page, 'heatmap')).toBeGreaterThanOrEqual(0.8 * PHONE.width);
    // The legend under the matrix, not beside it: the canvas is the screen's width.
    const box = (await heatmap.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width);
    // Tap the cell of query "it" (7) and key "animal" (1).
    const [x0, y0, x1, y1] = (await heatmap.getAttribute('data-cells'))!.split(' ').map(Number);
    const dpr = await page.evaluate(() => window.devicePixelRatio);
    const cell = (x1 - x0) / 11 / dpr;
    await heatmap.tap({ position: { x: x0 / dpr + 1.5 * cell, y: y0 / dpr + 7.5 * cell } });
    const info = page.getByTestId('cell-info').first();
    await expect(info).toContainText('query “it” (7) → key “animal” (1): weight');
    // The row's entropy, which the phone's figure leaves out, is in the reading.
    await expect(info).toContainText(/row entropy \d\.\d\d nats \(\d+% of its maximum\)/);
    expect(y1).toBeGreaterThan(y0);
  });

  test('one variant at a time, the difference one tap away', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByTestId('heatmap')).toHaveAttribute('data-rendered-tokens', '11');
    const variants = page.getByTestId('variant');
    const tabs = page.getByTestId('variant-switch-tab');
    await expect(tabs).toHaveText(['A', 'B']);
    await expect(variants.nth(0)).toBeVisible();
    await expect(variants.nth(1)).toBeHidden();
    await expect(page.getByTestId('compare')).toBeHidden();
    await tabs.nth(1).tap();
    await expect(tabs.nth(1)).toHaveAttribute('aria-pressed', 'true');
    await expect(variants.nth(0)).toBeHidden();
    await expect(variants.nth(1)).toBeVisible();
    await expect(page.getByTestId('variant-heatmap').first()).toBeInViewport();
    await page.getByTestId('variant-switch-difference').tap();
    await expect(page.getByTestId('compare')).toBeVisible();
    await expect(variants.nth(1)).toBeHidden();
    // Every tab is large enough to tap.
    for (const b of await page.getByTestId('variant-switch').locator('button').all()) {
      const r = (await b.boundingBox())!;
      expect(Math.min(r.width, r.height)).toBeGreaterThanOrEqual(44);
    }
    expect(await seriousViolations(page)).toEqual([]);
  });

  test('a tap on a token makes it the query, on Step by step and on Lines', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByTestId('heatmap')).toHaveAttribute('data-rendered-tokens', '11');
    await page.getByTestId('page-steps').tap();
    const steps = page.getByTestId('steps-canvas');
    await expect(steps).toHaveAttribute('data-rendered-tokens', '11');
    // The token "it" (7) on the left of the matrix, not a cell.
    const [x0, y0, , y1] = (await steps.getAttribute('data-cells'))!.split(' ').map(Number);
    const dpr = await page.evaluate(() => window.devicePixelRatio);
    const row = (y1 - y0) / 11 / dpr;
    await steps.tap({ position: { x: x0 / dpr - 15, y: y0 / dpr + 7.5 * row } });
    await expect(page.getByTestId('pick-query')).toHaveValue('7');

    await page.getByTestId('page-lines').tap();
    const lines = page.getByTestId('lines-canvas');
    await expect(lines).toHaveAttribute('data-rendered-tokens', '11');
    // Down the left column until a tap isolates query 7: a tap alone (no hover) picks.
    const box = (await lines.boundingBox())!;
    let found = false;
    for (let y = 60; y < box.height && !found; y += 6) {
      await lines.tap({ position: { x: 25, y } });
      const f = await lines.getAttribute('data-focus');
      found = f === 'q7';
      if (f && f.startsWith('q') && Number(f.slice(1)) > 7) break;
    }
    expect(found, 'a tap on query 7 isolates its lines').toBe(true);
  });

  test('a swipe across a lesson\'s bar turns the step', async ({ page }) => {
    await page.goto('/#lesson=masks');
    const bar = page.getByTestId('lesson-bar');
    await expect(page.getByTestId('lesson-step-of')).toHaveText('Step 1 of 7');
    const swipe = (dx: number) =>
      bar.evaluate((el, dx) => {
        const r = el.getBoundingClientRect();
        const at = (x: number) => [new Touch({ identifier: 1, target: el, clientX: x, clientY: r.top + 40 })];
        const x = r.left + r.width / 2;
        el.dispatchEvent(new TouchEvent('touchstart', { bubbles: true, touches: at(x), changedTouches: at(x) }));
        el.dispatchEvent(new TouchEvent('touchend', { bubbles: true, touches: [], changedTouches: at(x + dx) }));
      }, dx);
    await swipe(-120);
    await expect(page.getByTestId('lesson-step-of')).toHaveText('Step 2 of 7');
    await swipe(120);
    await expect(page.getByTestId('lesson-step-of')).toHaveText('Step 1 of 7');
    // A short movement is not a swipe.
    await swipe(-30);
    await page.waitForTimeout(200);
    await expect(page.getByTestId('lesson-step-of')).toHaveText('Step 1 of 7');
    expect(await seriousViolations(page)).toEqual([]);
  });

  test('presenting on a phone, the code sits in the page, over no figure', async ({ page }) => {
    await page.goto('/');
    await page.getByTestId('present').click();
    const corner = page.getByTestId('qr-corner');
    await expect(corner).toBeVisible();
    expect(await corner.evaluate((el) => getComputedStyle(el).position)).toBe('static');
    const code = (await corner.boundingBox())!;
    const overlaps = await page.locator('canvas').evaluateAll((cs, code) =>
      cs.map((c) => c.getBoundingClientRect())
        .filter((r) => r.width > 0 && r.left < code.x + code.width && code.x < r.right
          && r.top + window.scrollY < code.y + window.scrollY + code.height && code.y + window.scrollY < r.bottom + window.scrollY).length, code);
    expect(overlaps).toBe(0);
    // Presenting keeps a phone's type size: every page still fits the width.
    for (const name of PAGES) {
      await page.getByTestId(`page-${name}`).click();
      await expect(page.getByTestId(`page-${name}`)).toHaveAttribute('aria-selected', 'true');
      expect(await page.evaluate(() => document.documentElement.scrollWidth), name).toBeLessThanOrEqual(PHONE.width);
    }
  });
});

for (const size of [{ width: 768, height: 1024 }, { width: 1024, height: 768 }]) {
  test(`a ${size.width} × ${size.height} tablet keeps the variants side by side and fits every page`, async ({ page }) => {
    test.setTimeout(90_000);
    await page.setViewportSize(size);
    await page.goto('/');
    await expect(page.getByTestId('heatmap')).toHaveAttribute('data-rendered-tokens', '11');
    const a = (await page.getByTestId('variant').nth(0).boundingBox())!;
    const b = (await page.getByTestId('variant').nth(1).boundingBox())!;
    expect(Math.abs(a.y - b.y)).toBeLessThan(1);
    expect(b.x).toBeGreaterThan(a.x + a.width - 1);
    await expect(page.getByTestId('variant-switch')).toBeHidden();
    for (const name of PAGES) {
      await page.getByTestId(`page-${name}`).click();
      await page.waitForTimeout(300);
      const f = await fit(page);
      expect(f.width, `${name}: page width`).toBeLessThanOrEqual(size.width);
    }
  });
}
