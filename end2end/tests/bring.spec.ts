import { readFileSync, writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type FileChooser, type Page } from '@playwright/test';
import { file, npy, type Upload } from './files';
import { expect, test, toChinese } from './fixtures';

// Bring your own tensors (src/shell/bring_tensors.rs, attnlab_formats::tensors): files
// written by numpy itself (fixtures/bring/make.py) run through every variant and view;
// each broken file names what is wrong and leaves the previous state as it was.
//
// DOM contract: input[data-testid=bring-input] (multiple files), [data-testid=bring-error]
// (role=alert), [data-testid=brought-summary], button[data-testid=bring-clear].

const dir = fileURLToPath(new URL('../fixtures/bring/', import.meta.url));
const fixture = (name: string) => readFileSync(join(dir, name));
const expected = JSON.parse(fixture('expected.json').toString('utf8'));
const TOKENS = ['the', 'cat', 'sat', 'down'];

async function bring(page: Page, files: Upload[] | string) {
  await page.getByTestId('bring-input').setInputFiles(files);
}

async function tokensShown(page: Page) {
  return page.getByTestId('token-strip').getByTestId('token-text').allTextContents();
}

/** The lab's heatmap of variant A, head 0, as its JSON export. */
async function exportedWeights(page: Page): Promise<number[][]> {
  await page.getByTestId('heatmap-export-menu').locator('summary').click();
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByTestId('heatmap-export-json').click(),
  ]);
  const matrix = JSON.parse(readFileSync(await download.path()).toString('utf8'));
  await page.getByTestId('heatmap-export-menu').locator('summary').click();
  expect(matrix.rows).toEqual(TOKENS);
  return matrix.values;
}

test('an attnlab-tensors/1 JSON runs through the lab, with its token labels', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByTestId('heatmap')).toHaveAttribute('data-rendered-tokens', '11');
  await bring(page, [file('attn.json', fixture('attn.json'))]);
  await expect(page.getByTestId('brought-summary')).toHaveText(
    'attn.json: 2 heads · 4 queries × 4 keys · d_k 3 · d_v 2',
  );
  await expect(page.getByTestId('heatmap')).toHaveAttribute('data-rendered-tokens', '4');
  expect(await tokensShown(page)).toEqual(TOKENS);
  await expect(page.getByTestId('model-settings-brought')).toContainText('heads (2) and d_k (3)');
  const weights = await exportedWeights(page);
  for (let i = 0; i < 4; i++) {
    for (let j = 0; j < 4; j++) expect(weights[i][j]).toBeCloseTo(expected.head0_weights[i][j], 4);
  }
  // A cell's neuron view reads the brought vectors: q · k over their 3 dimensions.
  const heatmap = page.getByTestId('heatmap');
  const box = (await heatmap.boundingBox())!;
  await heatmap.click({ position: { x: box.width * 0.45, y: box.height * 0.5 } });
  await expect(page.getByTestId('neuron-q').first().locator('.neuron-cell')).toHaveCount(3);
  // The sentence waits in its box and comes back.
  await page.getByTestId('bring-clear').click();
  await expect(page.getByTestId('heatmap')).toHaveAttribute('data-rendered-tokens', '11');
  await expect(page.locator('#sentence-input')).toHaveValue(/The animal didn't cross/);
});

test('the pick button, in the page\'s language, opens the file chooser and reads what is chosen', async ({ page }) => {
  // Playwright takes over the file chooser once something listens for it; listening
  // from the start (not in the same breath as the key press) leaves no race between
  // that take-over and the chooser opening.
  const chosen = new Promise<FileChooser>((resolve) => page.on('filechooser', resolve));
  await page.goto('/');
  await expect(page.getByTestId('heatmap')).toHaveAttribute('data-rendered-tokens', '11');
  const pick = page.getByTestId('bring-pick');
  await expect(pick).toHaveText('Choose files\u2026');
  // The browser's own control (which speaks the browser's language) is not shown.
  await expect(page.getByTestId('bring-input')).not.toBeInViewport();
  await toChinese(page);
  await expect(pick).toHaveText('选择文件\u2026');
  // Reached by keyboard: focus it and press Enter.
  await pick.focus();
  await page.keyboard.press('Enter');
  const chooser = await Promise.race([
    chosen,
    page.waitForTimeout(15_000).then((): never => { throw new Error('no file chooser opened within 15 s'); }),
  ]);
  expect(chooser.isMultiple()).toBe(true);
  await chooser.setFiles([file('attn.json', fixture('attn.json'))]);
  await expect(page.getByTestId('heatmap')).toHaveAttribute('data-rendered-tokens', '4');
});

test('float64 Fortran-order .npy files with tokens.txt run through every page', async ({ page }) => {
  await page.goto('/');
  await bring(page, [
    file('q.npy', fixture('q.npy')),
    file('k.npy', fixture('k.npy')),
    file('v.npy', fixture('v.npy')),
    file('tokens.txt', fixture('tokens.txt')),
  ]);
  await expect(page.getByTestId('brought-summary')).toHaveText(
    'q.npy, k.npy, v.npy, tokens.txt: 2 heads · 4 queries × 4 keys · d_k 3 · d_v 2',
  );
  const weights = await exportedWeights(page);
  for (let i = 0; i < 4; i++) {
    for (let j = 0; j < 4; j++) expect(weights[i][j]).toBeCloseTo(expected.head0_weights[i][j], 5);
  }
  // Head 1's queries are 4 × its keys: a sharp diagonal, as numpy computed.
  await page.getByTestId('page-steps').click();
  await page.getByTestId('pick-head').selectOption('1');
  await expect(page.getByTestId('steps-title')).toContainText('Q');
  await expect(page.getByTestId('steps-note')).toContainText('as brought');
  const chips = page.getByTestId('steps-chip');
  await chips.filter({ hasText: /softmax/i }).first().click();
  const row = page.getByTestId('steps-row');
  const values = (await row.getAttribute('data-values'))!.split(',').map(Number);
  expect(values[0]).toBeCloseTo(expected.head1_diagonal[0], 5);
  // The other pages open on them too.
  for (const p of ['lines', 'linear', 'positions']) {
    await page.getByTestId(`page-${p}`).click();
  }
  await expect(page.getByTestId('positions-brought')).toBeVisible();
});

test('an .npz with a string token array is read whole', async ({ page }) => {
  await page.goto('/');
  await bring(page, [file('attn.npz', fixture('attn.npz'))]);
  await expect(page.getByTestId('brought-summary')).toContainText('attn.npz: 2 heads');
  expect(await tokensShown(page)).toEqual(TOKENS);
  const weights = await exportedWeights(page);
  expect(weights[3][3]).toBeCloseTo(expected.head0_weights[3][3], 5);
});

test('every broken file says what is wrong and the previous tensors stay', async ({ page }) => {
  await page.goto('/');
  await bring(page, [file('attn.json', fixture('attn.json'))]);
  const summary = page.getByTestId('brought-summary');
  await expect(summary).toContainText('attn.json: 2 heads');
  const error = page.getByTestId('bring-error');

  const q = fixture('q.npy');
  const withNaN = Buffer.from(q);
  // q is float64 in Fortran order, shape (2, 4, 3): the 6th number stored is [1, 2, 0].
  withNaN.writeDoubleLE(NaN, 10 + q.readUInt16LE(8) + 5 * 8);
  const k = fixture('k.npy');
  const v = fixture('v.npy');
  const big = mkdtempSync(join(tmpdir(), 'attnlab-'));
  writeFileSync(join(big, 'huge.npz'), Buffer.alloc(65 * 1024 * 1024));

  const cases: [string, Upload[] | string, RegExp | string][] = [
    [
      'wrong JSON types',
      [file('a.json', '{"heads":[{"q":[["x"]],"k":[[1]],"v":[[1]]}]}')],
      'a.json: heads[0].q[0][0]: invalid type: string "x", expected f32',
    ],
    [
      'ragged arrays',
      [file('a.json', '{"heads":[{"q":[[1,2],[3]],"k":[[1,2]],"v":[[1]]}]}')],
      'a.json: heads[0].q[1]: expected 2 numbers, found 1',
    ],
    [
      'NaN in an array',
      [file('q.npy', withNaN), file('k.npy', k), file('v.npy', v)],
      'q.npy: element [1, 2, 0] is NaN; every value must be a finite number',
    ],
    [
      'Infinity in JSON',
      [file('a.json', '{"heads":[{"q":[[1e999]],"k":[[1]],"v":[[1]]}]}')],
      /a\.json: heads\[0\]\.q\[0\]\[0\]: is 1e\+?999, outside the f32 range/,
    ],
    [
      'a 0×0 tensor',
      [file('q.npy', npy('<f4', [0, 0], Buffer.alloc(0))), file('k.npy', k), file('v.npy', v)],
      'q.npy: q (queries) has shape (0, 0): it holds no numbers',
    ],
    [
      'mismatched head shapes',
      [file('a.json', '{"heads":[{"q":[[1,2]],"k":[[1,2]],"v":[[1]]},{"q":[[1]],"k":[[1]],"v":[[1]]}]}')],
      'a.json: heads[1] has q, k, v of 1×1, 1×1, 1×1 but heads[0] of 1×2, 1×2, 1×1: every head needs the same sizes',
    ],
    [
      'an unsupported dtype',
      [file('q.npy', npy('<i4', [4, 3], Buffer.alloc(48))), file('k.npy', k), file('v.npy', v)],
      "q.npy: has dtype <i4; attnlab reads float32 (<f4, >f4) and float64 (<f8, >f8) arrays (convert with .astype('float32'))",
    ],
    [
      'a truncated .npy',
      [file('q.npy', q.subarray(0, q.length - 10)), file('k.npy', k), file('v.npy', v)],
      /^q\.npy: is cut short: shape \(2, 4, 3\) of <f8 needs 192 bytes of data, the file has 182$/,
    ],
    [
      'a truncated .npz',
      [file('attn.npz', fixture('attn.npz').subarray(0, 400))],
      /^attn\.npz: is not a readable \.npz \(zip\) archive/,
    ],
    ['a file over the limit', join(big, 'huge.npz'), 'huge.npz: is 68.2 MB; the limit is 67.1 MB (it was not read)'],
  ];
  try {
    for (const [what, files, message] of cases) {
      await bring(page, files);
      await expect(error, what).toHaveText(message);
      await expect(summary, what).toContainText('attn.json: 2 heads');
      await expect(page.getByTestId('heatmap'), what).toHaveAttribute('data-rendered-tokens', '4');
    }
  } finally {
    // The 65 MB file would otherwise stay in the temporary directory after every run.
    rmSync(big, { recursive: true, force: true });
  }
  // A good file clears the message.
  await bring(page, [file('attn.npz', fixture('attn.npz'))]);
  await expect(error).toBeEmpty();
  await expect(summary).toContainText('attn.npz');
});

test('the new kinds and options run on brought tensors, and differential says what it lacks', async ({ page }) => {
  await page.goto('/');
  await bring(page, [file('attn.json', fixture('attn.json'))]);
  await expect(page.getByTestId('brought-summary')).toHaveText(
    'attn.json: 2 heads · 4 queries × 4 keys · d_k 3 · d_v 2',
  );
  const b = page.getByTestId('variant').nth(1);
  const head = b.locator('canvas[data-figure=head]');
  const pixels = () => head.evaluate((c) => (c as HTMLCanvasElement).toDataURL('image/png'));
  await expect(head).toHaveAttribute('data-rendered-tokens', '4');
  for (const kind of ['softmax_plus_one', 'sigmoid', 'softpick', 'sink', 'decayed_linear', 'favor']) {
    const before = await pixels();
    await b.getByTestId('attention').selectOption(kind);
    await expect.poll(pixels, { message: kind }).not.toEqual(before);
    await expect(b.getByTestId('variant-error'), kind).toHaveCount(0);
    await expect(head, kind).toHaveAttribute('data-rendered-tokens', '4');
  }
  // The brought heads have no second queries and keys, and none are drawn for them.
  const differential = b.locator('select[data-testid=attention] option[value=differential]');
  await expect(differential).toBeDisabled();
  await expect(differential).toHaveAttribute('title', /the brought tensors do not have/);
  // RoPE turns the one pair d_k = 3 holds; two heads take one or two key/value groups.
  await b.getByTestId('attention').selectOption('softmax');
  const before = await pixels();
  await b.getByTestId('rope').check();
  await expect(b.getByTestId('rope-dims')).toHaveValue('2');
  await expect.poll(pixels).not.toEqual(before);
  await expect(b.locator('select[data-testid=kv-groups] option')).toHaveCount(2);
  await b.getByTestId('kv-groups').selectOption('1');
  await expect(b.getByTestId('kv-group')).toHaveCount(1);
  await expect(b.getByTestId('variant-error')).toHaveCount(0);
});
