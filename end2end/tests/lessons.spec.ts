import { type Page } from '@playwright/test';
import { englishLeft } from './english';
import { lessonFiles } from './lesson-files';
import { expect, test } from './fixtures';

// The lesson player (src/lessons/): every lesson, step by step, in both languages; the
// keys; the lesson links; the notice for a link to nothing. The expected steps and
// titles are read from the lesson files themselves (lessons/NN-id/*.toml).
//
// DOM contract: [data-testid=lesson-bar] (data-lesson, data-step), lesson-step-title,
// lesson-text, lesson-step-of, lesson-next/prev/leave, [data-testid=lesson-pointer]
// (data-figure) and lesson-region over the pointed figure, predict-choice,
// predict-reveal (data-right), predict-answer; lessons-open, lesson-list, lesson-item,
// lesson-progress, lesson-notice, lang-en / lang-zh.

type Lesson = {
  id: string;
  steps: string[];
  /** The steps on the real model's page (the model loads first). */
  onModel: Set<string>;
  titles: Record<string, Record<string, string>>;
};

const LESSONS: Lesson[] = lessonFiles().map((l) => ({
  id: l.id,
  steps: l.steps.map((s) => s.id),
  onModel: new Set(l.steps.filter((s) => s.page === 'model').map((s) => s.id)),
  titles: l.titles,
}));
const CJK = /[\u4e00-\u9fff]/;

test('the lesson files are all found', () => {
  expect(LESSONS.map((l) => l.id)).toEqual([
    'alignment', 'scores', 'scaling', 'heads', 'masks', 'positions', 'linear', 'complexity',
    'rope', 'long-context', 'beyond-softmax', 'decayed-linear', 'block', 'decoder', 'kv-cache',
    'why-attention',
  ]);
  for (const l of LESSONS) expect(l.steps.length, l.id).toBeGreaterThan(2);
});

async function setLang(page: Page, lang: string) {
  await page.getByTestId(`lang-${lang}`).click();
  await expect(page.getByTestId(`lang-${lang}`)).toHaveAttribute('aria-pressed', 'true');
}

/** The step shown is `step` of `lesson` in `lang`: text, place, link and pointer. */
async function expectStep(page: Page, lesson: Lesson, k: number, lang: string) {
  const step = lesson.steps[k];
  const bar = page.getByTestId('lesson-bar');
  await expect(bar).toHaveAttribute('data-step', step);
  await expect(bar).toHaveAttribute('lang', lang);
  await expect(page.getByTestId('lesson-step-title')).toHaveText(lesson.titles[lang][step]);
  await expect(page.getByTestId('lesson-name')).toHaveText(lesson.titles[lang]['$lesson']);
  const text = (await page.getByTestId('lesson-text').innerText()).trim();
  expect(text.length, `${lesson.id}/${step}`).toBeGreaterThan(20);
  // Chinese prose in 中文 (English steps may quote Chinese tokens, so only words there).
  if (lang === 'zh') expect(text, `${lesson.id}/${step}`).toMatch(CJK);
  else expect(text, `${lesson.id}/${step}`).toMatch(/\b(the|of|is|and)\b/i);
  await expect(page.getByTestId('lesson-step-of')).toContainText(String(k + 1));
  await expect(page.getByTestId('lesson-step-of')).toContainText(String(lesson.steps.length));
  await expect
    .poll(() => page.evaluate(() => location.hash), { message: 'the link names the step' })
    .toMatch(new RegExp(`^#lesson=${lesson.id}/${step}&lang=${lang}$`));
  // The pointer is on a figure that is on the page and visible.
  const pointer = page.getByTestId('lesson-pointer').first();
  // On the real model's page the figure appears once the model has loaded and run.
  await expect(pointer).toBeVisible({ timeout: lesson.onModel.has(step) ? 150_000 : undefined });
  const box = await pointer.boundingBox();
  expect(box!.width * box!.height, `${lesson.id}/${step}: pointer size`).toBeGreaterThan(400);
  // In 中文 every word of the page is Chinese but the tokens, formulas and the example
  // words the lesson's own prose quotes.
  if (lang === 'zh') {
    const left = (await englishLeft(page)).filter((w) => !w.endsWith('@ lesson-text'));
    expect(left, `${lesson.id}/${step}: English left in 中文`).toEqual([]);
  }
}

/** Picks a choice of the open predict step and checks the reveal. */
async function predict(page: Page, lesson: Lesson, step: string, pick: number) {
  const choices = page.getByTestId('predict-choice');
  const n = await choices.count();
  expect(n, `${lesson.id}/${step}: choices`).toBeGreaterThan(1);
  await expect(page.getByTestId('predict-question')).not.toHaveText('');
  await choices.nth(pick % n).click();
  const reveal = page.getByTestId('predict-reveal');
  await expect(reveal).toBeVisible();
  const right = page.locator('[data-testid=predict-choice].is-right');
  await expect(right).toHaveCount(1);
  const rightIndex = Number(await right.getAttribute('data-choice'));
  await expect(reveal).toHaveAttribute('data-right', String(rightIndex === pick % n));
  // The answer named is the right choice, and the reveal text carries it.
  const label = (await right.innerText()).trim();
  await expect(page.getByTestId('predict-answer')).toContainText(label);
  const why = await reveal.locator('.predict-why').innerText();
  expect(why).not.toContain('{answer}');
  expect(why.length).toBeGreaterThan(20);
}

for (const lang of ['en', 'zh']) {
  for (const lesson of LESSONS) {
    test(`lesson ${lesson.id} runs end to end in ${lang}`, async ({ page }) => {
      test.setTimeout(lesson.onModel.size > 0 ? 300_000 : 120_000);
      await page.goto('/#');
      await setLang(page, lang);
      await page.getByTestId('lessons-open').click();
      await page.locator(`[data-testid=lesson-item][data-lesson=${lesson.id}]`).getByTestId('lesson-start').click();
      let predicted = 0;
      for (let k = 0; k < lesson.steps.length; k++) {
        await expectStep(page, lesson, k, lang);
        if ((await page.getByTestId('predict').count()) > 0) {
          await predict(page, lesson, lesson.steps[k], predicted + k);
          predicted++;
        }
        if (k + 1 < lesson.steps.length) await page.getByTestId('lesson-next').click();
      }
      await expect(page.getByTestId('lesson-next')).toBeDisabled();
      // Every step is remembered as seen.
      await page.getByTestId('lesson-leave').click();
      await expect(page.getByTestId('lesson-bar')).toHaveCount(0);
      await expect.poll(() => page.evaluate(() => location.hash)).toMatch(/^#v1/);
      await page.getByTestId('lessons-open').click();
      const item = page.locator(`[data-testid=lesson-item][data-lesson=${lesson.id}]`);
      await expect(item.getByTestId('lesson-progress')).toContainText(
        `${lesson.steps.length} / ${lesson.steps.length}`,
      );
    });
  }
}

test('keys move between steps, and not while typing', async ({ page }) => {
  const masks = LESSONS.find((l) => l.id === 'masks')!;
  await page.goto(`/#lesson=masks/${masks.steps[1]}`);
  const bar = page.getByTestId('lesson-bar');
  await expect(bar).toHaveAttribute('data-step', masks.steps[1]);
  await page.locator('body').click({ position: { x: 2, y: 2 } });
  await page.keyboard.press('ArrowRight');
  await expect(bar).toHaveAttribute('data-step', masks.steps[2]);
  await page.keyboard.press('PageDown');
  await expect(bar).toHaveAttribute('data-step', masks.steps[3]);
  await page.keyboard.press('PageUp');
  await expect(bar).toHaveAttribute('data-step', masks.steps[2]);
  await page.keyboard.press('ArrowLeft');
  await expect(bar).toHaveAttribute('data-step', masks.steps[1]);
  await page.keyboard.press('Space');
  await expect(bar).toHaveAttribute('data-step', masks.steps[2]);
  // In the sentence box, keys are the text's.
  await page.getByTestId('sentence-input').focus();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('Space');
  await expect(bar).toHaveAttribute('data-step', masks.steps[2]);
});

test('a lesson link opens its step, and a changed state rides after it', async ({ page }) => {
  const linear = LESSONS.find((l) => l.id === 'linear')!;
  const last = linear.steps[linear.steps.length - 1];
  await page.goto(`/#lesson=linear/${last}`);
  await expect(page.getByTestId('lesson-bar')).toHaveAttribute('data-step', last);
  await expect(page.getByTestId('lesson-next')).toBeDisabled();
  await expect(page.getByTestId('lesson-step-of')).toContainText(String(linear.steps.length));
  // A lesson link without a step opens its first.
  // (A new fragment in the address bar reopens the page with it.)
  await page.goto('/#lesson=heads');
  await expect(page.getByTestId('lesson-bar')).toHaveAttribute('data-step', LESSONS[3].steps[0]);
  // A change by the learner is kept in the link, after the step.
  await page.getByTestId('sentence-input').fill('a b c');
  await expect
    .poll(() => page.evaluate(() => location.hash))
    .toMatch(new RegExp(`^#lesson=heads/${LESSONS[3].steps[0]}&v1`));
  await page.reload();
  await expect(page.getByTestId('lesson-bar')).toHaveAttribute('data-step', LESSONS[3].steps[0]);
  await expect(page.getByTestId('sentence-input')).toHaveValue('a b c');
});

test.describe('the lessons\' code', () => {
  // Every request seen by the page (the service worker would fetch the modules itself).
  test.use({ serviceWorkers: 'block' });
  test('is a module of its own: fetched with the list or a lesson link, not with the lab', async ({ page }) => {
    const lessonsModule = /\/lazy-[0-9a-f]+\/split_lessons_code_\d+\.wasm$/;
    const fetched: string[] = [];
    page.on('request', (r) => {
      if (lessonsModule.test(new URL(r.url()).pathname)) fetched.push(r.url());
    });
    await page.goto('/');
    await expect(page.locator('canvas[data-rendered-tokens]:not([data-rendered-tokens="0"])').first()).toBeVisible();
    await page.waitForLoadState('networkidle');
    expect(fetched, 'nothing of the lessons with the lab').toEqual([]);
    await page.getByTestId('lessons-open').click();
    await expect(page.getByTestId('lesson-item')).toHaveCount(LESSONS.length);
    expect(fetched.length, 'the module, once').toBe(1);
    // A link naming a step keeps its address while the module comes, then opens the step.
    const masks = LESSONS.find((l) => l.id === 'masks')!;
    const other = await page.context().newPage();
    await other.route(lessonsModule, async (route) => {
      await new Promise((ok) => setTimeout(ok, 1500));
      await route.continue();
    });
    await other.goto(`/#lesson=masks/${masks.steps[1]}`);
    await expect(other.locator('canvas[data-rendered-tokens]:not([data-rendered-tokens="0"])').first()).toBeVisible();
    await expect(other.getByTestId('lesson-bar')).toHaveCount(0);
    expect(await other.evaluate(() => location.hash)).toBe(`#lesson=masks/${masks.steps[1]}&lang=en`);
    await expect(other.getByTestId('lesson-bar')).toHaveAttribute('data-step', masks.steps[1]);
    await expect
      .poll(() => other.evaluate(() => location.hash))
      .toMatch(new RegExp(`^#lesson=masks/${masks.steps[1]}&lang=en$`));
  });
});

test('a link to a lesson or step that does not exist opens the list with a notice', async ({ page }) => {
  await page.goto('/#lesson=nonesuch/intro');
  await expect(page.getByTestId('lesson-list')).toBeVisible();
  await expect(page.getByTestId('lesson-notice')).toContainText('nonesuch');
  await expect(page.getByTestId('lesson-bar')).toHaveCount(0);
  await expect(page.getByTestId('lesson-item')).toHaveCount(LESSONS.length);
  await page.goto('/#lesson=masks/nonesuch');
  await expect(page.getByTestId('lesson-notice')).toContainText('masks');
  await expect(page.getByTestId('lesson-notice')).toContainText('nonesuch');
});

test.describe('a browser in Chinese', () => {
  test.use({ locale: 'zh-CN' });
  test('opens the lessons in 中文 first, and remembers a switch', async ({ page }) => {
    await page.goto('/#');
    await expect(page.getByTestId('lang-zh')).toHaveAttribute('aria-pressed', 'true');
    await page.getByTestId('lessons-open').click();
    await expect(page.getByTestId('lesson-item').first()).toContainText(LESSONS[0].titles.zh['$lesson']);
    await setLang(page, 'en');
    await expect(page.getByTestId('lesson-item').first()).toContainText(LESSONS[0].titles.en['$lesson']);
    await page.reload();
    await expect(page.getByTestId('lang-en')).toHaveAttribute('aria-pressed', 'true');
  });
});

test('the handmade alignment lesson computes on its own tensors', async ({ page }) => {
  await page.goto('/#lesson=alignment/handmade');
  await expect(page.getByTestId('lesson-bar')).toHaveAttribute('data-step', 'handmade');
  await expect(page.getByTestId('brought')).toBeVisible();
  await expect(page.getByTestId('lesson-region')).toBeVisible();
  // The next step puts the tensors away.
  await page.getByTestId('lesson-next').click();
  await expect(page.getByTestId('brought')).toHaveCount(0);
});
