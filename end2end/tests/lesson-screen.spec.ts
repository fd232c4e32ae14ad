import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { type LessonFile as Lesson, type LessonStep as Step, lessonFiles } from './lesson-files';

// A lesson in class (src/lessons/pointer.rs, predict.rs; style/display.css, lessons.css):
// at every step the step's text and the figure it points at share the screen, on a
// projector (presentation mode, 1280 × 720 and 1920 × 1080) and on a phone; presenting,
// the pointed figures take the screen beside the text (≥ 60 % of a 1920 px width, labels
// ≥ 18 px) with nothing else of the page; a predict step blurs what would give its answer
// away until the learner picks.
//
// DOM contract: lesson-bar (data-step), lesson-text, lesson-pointer (data-figure: its box
// is the pointed figure's), predict-choice, predict-reveal, predict-hidden; canvases with
// data-cells = "x0 y0 x1 y1" (backing pixels) are heatmaps.

const here = path.dirname(fileURLToPath(import.meta.url));
const dist = path.resolve(here, '..', '..', 'dist');
/** The real model's page needs its weights, which `cargo xtask model` builds. */
const haveModel = existsSync(path.join(dist, 'model/all-minilm-l6-v2.q8.safetensors'));

const LESSONS = lessonFiles();

type Box = { left: number; top: number; right: number; bottom: number; width: number; height: number };

/** Where the step's text and its pointed figures are in the window now. */
async function onScreen(page: Page) {
  return page.evaluate(() => {
    const box = (r: DOMRect) => ({ left: r.left, top: r.top, right: r.right, bottom: r.bottom, width: r.width, height: r.height });
    const text = document.querySelector('[data-testid=lesson-text]')!;
    const region = text.closest('.lesson-bar-region') ?? text;
    const pointers = [...document.querySelectorAll('[data-testid=lesson-pointer]')];
    return {
      view: { width: innerWidth, height: innerHeight },
      text: box(text.getBoundingClientRect()),
      region: box(region.getBoundingClientRect()),
      figures: pointers.map((p) => ({ ...box(p.getBoundingClientRect()), name: p.getAttribute('data-figure') })),
    };
  });
}

/** `inner` lies inside `outer` (1 px either way for rounding). */
const inside = (inner: Box, outer: { left: number; top: number; right: number; bottom: number }) =>
  inner.left >= outer.left - 1 && inner.top >= outer.top - 1 && inner.right <= outer.right + 1 && inner.bottom <= outer.bottom + 1;

/** Why the step's text or a figure it points at is not on screen, or '' when both are
 *  (a step pointing at several figures: one of them, on a phone, where they stack). */
async function offScreen(page: Page): Promise<string> {
  const s = await onScreen(page);
  const screen = { left: 0, top: 0, right: s.view.width, bottom: s.view.height };
  if (s.figures.length === 0) return 'no figure pointed at yet';
  if (!inside(s.text, screen)) return `text at ${JSON.stringify(s.text)} off the ${s.view.width}×${s.view.height} window`;
  if (!inside(s.text, s.region)) return `text at ${JSON.stringify(s.text)} outside its column ${JSON.stringify(s.region)}`;
  // A figure taller than the window (a panel of several figures) fills the window from
  // its top (text beside it) or from right under the step's text; any other lies inside
  // the window.
  const placed = (f: Box) => {
    const tall = f.height > s.view.height;
    const from = s.region.right <= f.left ? 8 : s.region.bottom + 40;
    const fits = tall ? f.top >= -1 && f.top <= from : inside(f, screen);
    return fits && f.left >= -1 && f.right <= s.view.width + 1;
  };
  if (!s.figures.some(placed)) {
    return `no figure on the ${s.view.width}×${s.view.height} window: ${JSON.stringify(s.figures)}`;
  }
  return '';
}

/** Opens `lesson`'s first step, presenting or not. */
async function openLesson(page: Page, lesson: Lesson, present: boolean) {
  await page.goto('/#');
  if (present) {
    await page.getByTestId('present').click();
    await expect(page.locator('html')).toHaveAttribute('data-presenting', 'true');
  }
  await page.getByTestId('lessons-open').click();
  await page.locator(`[data-testid=lesson-item][data-lesson=${lesson.id}]`).getByTestId('lesson-start').click();
  await expect(page.getByTestId('lesson-bar')).toHaveAttribute('data-step', lesson.steps[0].id);
}

/** Moves to the next step as a clicker does (presenting) or a tap on Next does. */
async function next(page: Page, present: boolean) {
  if (present) await page.keyboard.press('PageDown');
  else await page.getByTestId('lesson-next').click();
}

/** Answers the open predict step (its first choice), if it is one. */
async function answer(page: Page, step: Step) {
  if (!step.predict) return;
  await page.getByTestId('predict-choice').first().click();
  await expect(page.getByTestId('predict-reveal')).toBeVisible();
}

const SIZES = [
  { name: 'a 1280 × 720 projector', present: true, use: { viewport: { width: 1280, height: 720 } } },
  { name: 'a 1920 × 1080 projector', present: true, use: { viewport: { width: 1920, height: 1080 } } },
  {
    name: 'a phone',
    present: false,
    use: { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true },
  },
];

for (const size of SIZES) {
  test.describe(`on ${size.name}`, () => {
    test.use(size.use);
    for (const lesson of LESSONS) {
      test(`every step of lesson ${lesson.id} shows its text and its figure together`, async ({ page }) => {
        test.setTimeout(180_000);
        await openLesson(page, lesson, size.present);
        for (let k = 0; k < lesson.steps.length; k++) {
          const step = lesson.steps[k];
          if (k > 0) await next(page, size.present);
          await expect(page.getByTestId('lesson-bar')).toHaveAttribute('data-step', step.id);
          if (step.page === 'model' && !haveModel) continue;
          await expect(page.getByTestId('lesson-pointer').first()).toBeVisible({
            timeout: step.page === 'model' ? 150_000 : undefined,
          });
          await expect
            .poll(() => offScreen(page), { message: `${lesson.id}/${step.id} on ${size.name}` })
            .toBe('');
          await answer(page, step);
        }
      });
    }
  });
}

// The font of every text drawn on each canvas since its last full paint: its size in
// backing pixels and where it was drawn (backing pixels), from the 2D context itself.
const recordCanvasText = () => {
  type Drawn = { text: string; px: number; x: number; y: number };
  const drawn = new WeakMap<HTMLCanvasElement, Drawn[]>();
  (window as unknown as { canvasText: (c: HTMLCanvasElement) => Drawn[] }).canvasText = (c) => drawn.get(c) ?? [];
  const proto = CanvasRenderingContext2D.prototype;
  const fillRect = proto.fillRect;
  proto.fillRect = function (x: number, y: number, w: number, h: number) {
    // A paint starts by filling the whole canvas: what it draws replaces the last.
    if (x <= 0 && y <= 0 && w >= this.canvas.width && h >= this.canvas.height) drawn.set(this.canvas, []);
    return fillRect.call(this, x, y, w, h);
  };
  const fillText = proto.fillText;
  proto.fillText = function (text: string, x: number, y: number, maxWidth?: number) {
    const px = Number(/(\d+(?:\.\d+)?)px/.exec(this.font)?.[1] ?? NaN);
    const t = this.getTransform();
    const list = drawn.get(this.canvas) ?? [];
    list.push({ text, px, x: t.a * x + t.c * y + t.e, y: t.b * x + t.d * y + t.f });
    drawn.set(this.canvas, list);
    return maxWidth === undefined ? fillText.call(this, text, x, y) : fillText.call(this, text, x, y, maxWidth);
  };
};

/** The pointed figures' boxes, how much of the width they span together, the smallest
 *  text drawn around the pointed heatmaps' cells (labels, titles, legend, entropy panel;
 *  CSS px), and the canvases on screen that no pointer is on. */
async function presented(page: Page) {
  return page.evaluate(() => {
    const outlines = [...document.querySelectorAll('[data-testid=lesson-pointer]')].map((o) => o.getBoundingClientRect());
    const left = Math.min(...outlines.map((r) => r.left));
    const right = Math.max(...outlines.map((r) => r.right));
    const within = (r: DOMRect, o: DOMRect) =>
      r.left >= o.left - 2 && r.top >= o.top - 2 && r.right <= o.right + 2 && r.bottom <= o.bottom + 2;
    const canvases = [...document.querySelectorAll('.lab-main canvas')] as HTMLCanvasElement[];
    const shown = canvases.filter((c) => {
      const r = c.getBoundingClientRect();
      return r.width > 0 && r.height > 0 && r.bottom > 0 && r.top < innerHeight && getComputedStyle(c).visibility !== 'hidden';
    });
    const pointed = shown.filter((c) => outlines.some((o) => within(c.getBoundingClientRect(), o)));
    const canvasText = (window as unknown as { canvasText: (c: HTMLCanvasElement) => { text: string; px: number; x: number; y: number }[] }).canvasText;
    let labelPx = Infinity;
    let heatmaps = 0;
    for (const c of pointed) {
      const cells = c.getAttribute('data-cells');
      if (!cells) continue;
      heatmaps++;
      const [x0, y0, x1, y1] = cells.split(' ').map(Number);
      for (const t of canvasText(c)) {
        const inCells = t.x > x0 && t.x < x1 && t.y > y0 && t.y < y1;
        // Fonts are set in backing pixels: devicePixelRatio of them to a CSS pixel.
        if (!inCells && t.text.trim()) labelPx = Math.min(labelPx, t.px / devicePixelRatio);
      }
    }
    return {
      share: outlines.length ? (right - left) / innerWidth : 0,
      labelPx: heatmaps ? labelPx : null,
      others: shown.length - pointed.length,
    };
  });
}

test.describe('presenting on a 1920 × 1080 projector', () => {
  test.use({ viewport: { width: 1920, height: 1080 } });
  test.beforeEach(async ({ page }) => {
    await page.addInitScript(recordCanvasText);
  });
  for (const lesson of LESSONS) {
    test(`lesson ${lesson.id}: the pointed figures take the screen, labels at 18 px or more`, async ({ page }) => {
      test.setTimeout(180_000);
      await openLesson(page, lesson, true);
      for (let k = 0; k < lesson.steps.length; k++) {
        const step = lesson.steps[k];
        if (k > 0) await next(page, true);
        await expect(page.getByTestId('lesson-bar')).toHaveAttribute('data-step', step.id);
        if (step.page === 'model' && !haveModel) continue;
        await expect(page.getByTestId('lesson-pointer').first()).toBeVisible({
          timeout: step.page === 'model' ? 150_000 : undefined,
        });
        await answer(page, step);
        const where = `${lesson.id}/${step.id}`;
        await expect.poll(async () => (await presented(page)).share, { message: `${where}: width share` }).toBeGreaterThanOrEqual(0.6);
        await expect.poll(async () => (await presented(page)).others, { message: `${where}: other figures on screen` }).toBe(0);
        const { labelPx, share } = await presented(page);
        if (labelPx !== null) expect(labelPx, `${where}: smallest text around the cells`).toBeGreaterThanOrEqual(18);
        test.info().annotations.push({ type: 'measured', description: `${where}: share ${share.toFixed(3)}, labels ${labelPx?.toFixed(1) ?? '–'} px` });
      }
    });
  }
});

/** Whether each of the page's figures, tables and computed numbers (`<output>`) is hidden, and whether it is blurred (at
 *  least 8 px, on itself or what holds it). */
async function veiled(page: Page) {
  return page.evaluate(() => {
    const blurred = (el: Element) => {
      for (let a: Element | null = el; a; a = a.parentElement) {
        const blur = /blur\((\d+(?:\.\d+)?)px\)/.exec(getComputedStyle(a).filter);
        if (blur && Number(blur[1]) >= 8) return true;
      }
      return false;
    };
    const hidden = (el: Element) => {
      const r = el.getBoundingClientRect();
      return r.width === 0 || r.height === 0 || getComputedStyle(el).visibility === 'hidden';
    };
    const bar = document.querySelector('.lesson-bar-region');
    const figures = [...document.querySelectorAll('.lab-main canvas, .lab-main table, .lab-main output, .lab-main [data-testid=compare-table], .lab-main [data-testid=cell-info]')]
      .filter((el) => !bar?.contains(el))
      .filter((el) => el.getBoundingClientRect().width > 0 || el.tagName !== 'CANVAS');
    return figures.map((el) => ({
      what: el.getAttribute('data-testid') ?? el.tagName.toLowerCase(),
      hidden: hidden(el),
      blurred: blurred(el),
    }));
  });
}

const PREDICTS = LESSONS.flatMap((lesson) => lesson.steps.filter((s) => s.predict).map((step) => ({ lesson, step })));

test('the lessons have predict steps', () => {
  expect(PREDICTS.length).toBeGreaterThanOrEqual(6);
});

for (const size of SIZES) {
  test.describe(`a predict step on ${size.name}`, () => {
    test.use(size.use);
    test('hides its figures, their numbers and entropies until the learner answers', async ({ page }) => {
      test.setTimeout(120_000);
      if (size.present) {
        await page.goto('/#');
        await page.getByTestId('present').click();
        await expect(page.locator('html')).toHaveAttribute('data-presenting', 'true');
      }
      for (const { lesson, step } of PREDICTS) {
        const where = `${lesson.id}/${step.id}`;
        await page.goto(`/#lesson=${lesson.id}/${step.id}`);
        await expect(page.getByTestId('lesson-bar')).toHaveAttribute('data-step', step.id);
        // The page's figures are drawn (a phone shows the lab's difference one tap away,
        // so a step's pointer may wait for the tap).
        await expect(page.locator('.lab-main canvas[data-rendered-tokens], .lab-main canvas[data-points]').first()).toBeAttached();
        // Pages other than the lab (a module of their own) lay their figures out once
        // loaded and run.
        await expect.poll(async () => (await veiled(page)).length, { message: `${where}: figures on the page` }).toBeGreaterThan(0);
        const before = await veiled(page);
        expect(before.filter((f) => !f.hidden && !f.blurred), `${where}: shown before the answer`).toEqual([]);
        await expect(page.getByTestId('predict-hidden')).toBeVisible();
        await page.getByTestId('predict-choice').first().click();
        await expect(page.getByTestId('predict-reveal')).toBeVisible();
        await expect(page.getByTestId('predict-hidden')).toBeHidden();
        // Once answered, every figure is shown again, the pointed ones first of all.
        await expect.poll(async () => (await veiled(page)).filter((f) => f.blurred), { message: `${where}: still blurred after the answer` }).toEqual([]);
        const after = await veiled(page);
        expect(after.filter((f) => !f.hidden).length, `${where}: figures shown after the answer`).toBeGreaterThan(0);
      }
    });
  });
}
