import { type Page } from '@playwright/test';
import { expect, test } from './fixtures';

// The complexity page: softmax and linear attention timed in a Web Worker.
//
// DOM contract (src/pages/complexity/):
//   [data-testid=page-complexity]        the tab
//   [data-testid=complexity-max-n]       <select> of the largest n (2048 … 16384)
//   [data-testid=complexity-start|cancel] buttons
//   progress[data-testid=complexity-progress]  value/max = points measured / planned
//   [data-testid=complexity-status]      data-state = idle|running|finished|cancelled|failed
//   [data-testid=complexity-row]         one per measured n (data-n), cells softmax-ms and
//                                        linear-ms with the exact value in data-ms
//   [data-testid=complexity-slope-softmax|linear]  data-slope = fitted slope
//   canvas[data-testid=complexity-chart] data-legend = legend entries joined by " | ",
//                                        data-points = points drawn

const status = (page: Page) => page.getByTestId('complexity-status');
const progress = (page: Page) => page.getByTestId('complexity-progress');
const rows = (page: Page) => page.getByTestId('complexity-row');
const chart = (page: Page) => page.getByTestId('complexity-chart');

async function openComplexity(page: Page, maxN: string) {
  await page.goto('/');
  await expect(page.getByTestId('token-strip').getByTestId('token')).toHaveCount(11);
  await page.getByTestId('page-complexity').click();
  await expect(page.getByTestId('complexity-view')).toBeVisible();
  await expect(status(page)).toHaveAttribute('data-state', 'idle');
  await page.getByTestId('complexity-max-n').selectOption(maxN);
}

const slopeOf = async (page: Page, kind: string) =>
  Number(await page.getByTestId(`complexity-slope-${kind}`).getAttribute('data-slope'));

test('a run up to n = 4096 fills the table and shows two fitted slopes, softmax steeper', async ({ page }) => {
  test.setTimeout(120_000);
  await openComplexity(page, '4096');
  await page.getByTestId('complexity-start').click();
  await expect(status(page)).toHaveAttribute('data-state', 'running');
  await expect(status(page)).toHaveAttribute('data-state', 'finished', { timeout: 90_000 });
  await expect(status(page)).toContainText('14 points measured');
  await expect(progress(page)).toHaveAttribute('value', '14');
  await expect(progress(page)).toHaveAttribute('max', '14');

  // 64 … 4096: seven sizes, both times measured, positive and finite.
  await expect(rows(page)).toHaveCount(7);
  const ns = await rows(page).evaluateAll((trs) => trs.map((tr) => Number(tr.getAttribute('data-n'))));
  expect(ns).toEqual([64, 128, 256, 512, 1024, 2048, 4096]);
  for (const kind of ['softmax-ms', 'linear-ms']) {
    const ms = await page
      .getByTestId(kind)
      .evaluateAll((tds) => tds.map((td) => Number(td.getAttribute('data-ms'))));
    expect(ms).toHaveLength(7);
    for (const v of ms) expect(v > 0 && Number.isFinite(v), `${kind} ${v}`).toBe(true);
  }
  // Softmax's time grows much faster: 64× the sizes give far more than 64× its time.
  const softmax = await page
    .getByTestId('softmax-ms')
    .evaluateAll((tds) => tds.map((td) => Number(td.getAttribute('data-ms'))));
  expect(softmax[6] / softmax[3]).toBeGreaterThan(20); // 8× n: 64× ideally, 8× if linear

  const s = await slopeOf(page, 'softmax');
  const l = await slopeOf(page, 'linear');
  console.log(`slopes up to 4096: softmax ${s.toFixed(3)}, linear ${l.toFixed(3)}`);
  // Only what a loaded 2-core machine keeps: a clear gap, and each slope near its law.
  expect(s - l).toBeGreaterThan(0.5);
  expect(s).toBeGreaterThan(1.3);
  expect(s).toBeLessThan(3.0);
  expect(l).toBeGreaterThan(0.4);
  expect(l).toBeLessThan(1.7);
  await expect(page.getByTestId('complexity-slope-softmax')).toContainText(`slope ${s.toFixed(2)}`);

  // The chart: both fitted slopes in its legend, 14 points drawn.
  await expect(chart(page)).toHaveAttribute(
    'data-legend',
    `softmax (streaming) slope ${s.toFixed(2)} | linear elu1 slope ${l.toFixed(2)}`,
  );
  await expect(chart(page)).toHaveAttribute('data-points', '14');
  await expect(page.getByTestId('complexity-crossover')).toContainText('Crossover:');
});

test('Cancel stops the run, says cancelled and keeps the points measured so far', async ({ page }) => {
  await openComplexity(page, '16384');
  await page.getByTestId('complexity-start').click();
  // Wait for a few points (the small sizes come fast), then cancel before the large ones.
  await expect.poll(() => rows(page).count(), { timeout: 30_000 }).toBeGreaterThanOrEqual(3);
  await page.getByTestId('complexity-cancel').click();
  await expect(status(page)).toHaveAttribute('data-state', 'cancelled');
  await expect(status(page)).toContainText('Cancelled after');
  await expect(page.getByTestId('complexity-cancel')).toBeDisabled();
  const stopped = Number(await progress(page).getAttribute('value'));
  expect(stopped).toBeGreaterThanOrEqual(5);
  expect(stopped).toBeLessThan(18);
  const kept = await rows(page).count();
  // Nothing more arrives once the worker is terminated.
  await page.waitForTimeout(3_000);
  await expect(progress(page)).toHaveAttribute('value', String(stopped));
  await expect(rows(page)).toHaveCount(kept);
  await expect(status(page)).toHaveAttribute('data-state', 'cancelled');
  // A new run starts from scratch.
  await page.getByTestId('complexity-max-n').selectOption('2048');
  await page.getByTestId('complexity-start').click();
  await expect(status(page)).toHaveAttribute('data-state', 'finished', { timeout: 60_000 });
  await expect(rows(page)).toHaveCount(6);
});

test('the page stays responsive while the worker runs: typing updates the tokens', async ({ page }) => {
  await openComplexity(page, '16384');
  await page.getByTestId('complexity-start').click();
  // Well into the run: the large sizes take seconds per call, all in the worker.
  await expect(rows(page)).toHaveCount(7, { timeout: 60_000 });
  await expect(status(page)).toHaveAttribute('data-state', 'running');
  const box = page.getByTestId('sentence-input');
  const started = Date.now();
  await box.fill('the worker keeps timing');
  await expect(page.getByTestId('token-strip').getByTestId('token')).toHaveText(
    ['the', 'worker', 'keeps', 'timing'],
    { timeout: 2_000 },
  );
  expect(Date.now() - started).toBeLessThan(2_000);
  // The main thread also answers a round trip through its event loop quickly.
  const lag = await page.evaluate(
    () => new Promise<number>((resolve) => {
      const t = performance.now();
      setTimeout(() => resolve(performance.now() - t), 0);
    }),
  );
  expect(lag).toBeLessThan(200);
  await expect(status(page)).toHaveAttribute('data-state', 'running');
  await page.getByTestId('complexity-cancel').click();
  await expect(status(page)).toHaveAttribute('data-state', 'cancelled');
});
