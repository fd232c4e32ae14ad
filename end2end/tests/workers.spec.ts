import { readFileSync } from 'node:fs';
import { type Page } from '@playwright/test';
import { file } from './files';
import { expect, test } from './fixtures';

// The page's workers, each a wasm of its own with one job (crates/attnlab-workers/): the complexity
// page's timing (crates/attnlab-timing-worker) and the reading of brought tensors
// (crates/attnlab-files-worker). A job starts its own worker, and a worker's wasm
// carries the code of its job only.

const fixture = (name: string) => readFileSync(new URL(`../fixtures/bring/${name}`, import.meta.url));

/** Whether the wasm at `url` (beside index.html) holds the ASCII text `text`. */
const wasmHolds = (page: Page, url: string, text: string) =>
  page.evaluate(
    async ([url, text]) => {
      const response = await fetch(url);
      if (!response.ok) throw new Error(`${url}: ${response.status}`);
      // One character per byte: ASCII text is found as it is.
      return new TextDecoder('latin1').decode(await response.arrayBuffer()).includes(text);
    },
    [url, text] as const,
  );

test('each job starts its own worker, whose wasm carries that job only', async ({ page }) => {
  test.setTimeout(90_000);
  const started: string[] = [];
  page.on('worker', (w) => started.push(new URL(w.url()).pathname.split('/').pop()!));
  await page.goto('/');
  await expect(page.getByTestId('heatmap')).toHaveAttribute('data-rendered-tokens', '11');

  // The complexity page times in the timing worker.
  await page.getByTestId('page-complexity').click();
  await page.getByTestId('complexity-max-n').selectOption('2048');
  await page.getByTestId('complexity-start').click();
  await expect(page.getByTestId('complexity-row').first()).toBeVisible({ timeout: 30_000 });
  await page.getByTestId('complexity-cancel').click();
  await expect(page.getByTestId('complexity-status')).toHaveAttribute('data-state', 'cancelled');
  expect(started).toEqual(['attnlab-timing-worker_loader.js']);

  // Brought tensors are read in the files worker.
  await page.getByTestId('page-lab').click();
  await page.getByTestId('bring-input').setInputFiles([file('attn.json', fixture('attn.json'))]);
  await expect(page.getByTestId('brought-summary')).toHaveText(
    'attn.json: 2 heads · 4 queries × 4 keys · d_k 3 · d_v 2',
  );
  expect(started).toEqual(['attnlab-timing-worker_loader.js', 'attnlab-files-worker_loader.js']);

  // The timing wasm holds the timing's checks and no file reader; the reader's wasm the
  // NumPy reader and no timing.
  const timing = './attnlab-timing-worker_bg.wasm';
  const files = './attnlab-files-worker_bg.wasm';
  const timingCheck = 'nothing to time: no sizes or no kinds';
  const numpyCheck = 'NUMPY signature';
  expect(await wasmHolds(page, timing, timingCheck)).toBe(true);
  expect(await wasmHolds(page, timing, numpyCheck)).toBe(false);
  expect(await wasmHolds(page, files, numpyCheck)).toBe(true);
  expect(await wasmHolds(page, files, timingCheck)).toBe(false);
});
