import { type Locator, type Page } from '@playwright/test';
import { expect, test } from './fixtures';

// Long texts: zooming the lab's large heatmaps to a range of queries and keys, and the
// Lines page's threshold.
//
// DOM contract (src/lab/zoom.rs, src/canvas/heatmap_canvas.rs, crates/attnlab-paint/src/lib.rs):
//   [data-testid=zoom-bar]                      above the variants
//     input[data-testid=zoom-query-from|zoom-query-to|zoom-key-from|zoom-key-to]
//                                               token indices, ends included; change applies
//     button[data-testid=zoom-reset]            the whole matrix again
//   canvas[data-testid=heatmap] (and difference-heatmap), after each full paint:
//     data-rows, data-cols                      the shape drawn
//     data-row-range, data-col-range            "first-last", indices of the whole matrix
//     data-label-step                           every how many tokens a label is written
//     data-row-labels, data-col-labels          how many labels are written
//     data-label-px                             their size, CSS px
//     data-cells                                "x0 y0 x1 y1" of the matrix, backing px
//   [data-testid=zoom-note]                     under a zoomed figure: the ranges, the step
//   canvas[data-testid=lines-canvas]: data-lines (lines drawn), data-threshold
//   input[data-testid=lines-threshold] (range), input[data-testid=lines-threshold-value]

const N = 300;
const TEXT = Array.from({ length: N }, (_, i) => `w${i}`).join(' ');
const heatmap = (page: Page) => page.getByTestId('heatmap');
const attr = async (l: Locator, name: string) => (await l.getAttribute(name))!;

async function openLong(page: Page) {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto('/');
  await expect(heatmap(page)).toHaveAttribute('data-rendered-tokens', '11');
  await page.getByTestId('sentence-input').fill(TEXT);
  await expect(heatmap(page)).toHaveAttribute('data-rows', String(N));
  await expect(heatmap(page)).toHaveAttribute('data-row-range', `0-${N - 1}`);
}

/** Types `value` into a zoom input with the keyboard alone and leaves it with Tab. */
async function typeInto(page: Page, testid: string, value: string) {
  await page.getByTestId(testid).focus();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type(value);
  await page.keyboard.press('Tab');
}

/** The CSS position (page coordinates) of the centre of drawn cell (r, c), local to the figure. */
async function cellCentre(canvas: Locator, r: number, c: number) {
  const [x0, y0, x1, y1] = (await attr(canvas, 'data-cells')).split(' ').map(Number);
  const rows = Number(await attr(canvas, 'data-rows'));
  const cols = Number(await attr(canvas, 'data-cols'));
  const box = (await canvas.boundingBox())!;
  const dpr = Number(await attr(canvas, 'width')) / box.width;
  return {
    x: box.x + (x0 + ((c + 0.5) * (x1 - x0)) / cols) / dpr,
    y: box.y + (y0 + ((r + 0.5) * (y1 - y0)) / rows) / dpr,
  };
}

test('a 300-token text: the range inputs zoom the large heatmaps, the readout keeps the true indices, reset shows all', async ({ page }) => {
  await openLong(page);
  const h = heatmap(page);
  // The whole: 300 × 300, a label every 20 tokens or more.
  expect(Number(await attr(h, 'data-label-step'))).toBeGreaterThanOrEqual(20);
  const wholeCells = await attr(h, 'data-cells');

  // "queries 120–160, keys 100–180", typed with the keyboard.
  await typeInto(page, 'zoom-query-from', '120');
  await typeInto(page, 'zoom-query-to', '160');
  await typeInto(page, 'zoom-key-from', '100');
  await typeInto(page, 'zoom-key-to', '180');
  for (const canvas of [h, page.getByTestId('variant-heatmap'), page.getByTestId('difference-heatmap')]) {
    await expect(canvas).toHaveAttribute('data-row-range', '120-160');
    await expect(canvas).toHaveAttribute('data-col-range', '100-180');
    await expect(canvas).toHaveAttribute('data-rows', '41');
    await expect(canvas).toHaveAttribute('data-cols', '81');
  }
  // Every label of the range, or readable labels with the step said under the figure.
  const step = Number(await attr(h, 'data-label-step'));
  const px = Number(await attr(h, 'data-label-px'));
  const note = page.getByTestId('variant').first().getByTestId('zoom-note');
  await expect(note).toContainText('Zoomed: queries 120–160, keys 100–180');
  expect(px).toBeGreaterThanOrEqual(12);
  if (step === 1) {
    expect([await attr(h, 'data-row-labels'), await attr(h, 'data-col-labels')]).toEqual(['41', '81']);
    await expect(note).toContainText('every token labelled');
  } else {
    // Labels at multiples of the step in the whole's indices: 120, 120 + step, … ≤ 160.
    expect(Number(await attr(h, 'data-row-labels'))).toBe(Math.floor(160 / step) - Math.ceil(120 / step) + 1);
    await expect(note).toContainText(`one token in ${step} labelled`);
  }
  console.log(`zoom 41 × 81 at 1440 × 900: label step ${step}, ${px} px, cells ${await attr(h, 'data-cells')} (whole: ${wholeCells})`);

  // The keyboard readout names the true query and key.
  const info = page.getByTestId('variant').first().getByTestId('cell-info').first();
  await h.focus();
  await expect(info).toContainText('“w120” (120) → key “w100” (100): weight');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowDown');
  await expect(info).toContainText('“w121” (121) → key “w101” (101): weight');
  // The keyboard stays inside the zoomed range.
  await page.keyboard.press('End');
  await expect(info).toContainText('key “w180” (180)');
  // The pointer too: the centre of drawn cell (30, 50) is query 150, key 150.
  const p = await cellCentre(h, 30, 50);
  await page.mouse.move(p.x, p.y);
  await expect(info).toContainText('“w150” (150) → key “w150” (150): weight');
  await expect(page.getByTestId('heatmap-announce')).toContainText('w150 (150)');

  // Reset: the whole matrix again.
  await page.getByTestId('zoom-reset').click();
  await expect(h).toHaveAttribute('data-row-range', `0-${N - 1}`);
  await expect(h).toHaveAttribute('data-col-range', `0-${N - 1}`);
  await expect(page.getByTestId('zoom-note')).toHaveCount(0);
  await expect(page.getByTestId('zoom-query-to')).toHaveValue(String(N - 1));
  await expect(page.getByTestId('zoom-reset')).toBeDisabled();
});

test('dragging a rectangle zooms to it, every label of it is drawn, and the link reopens it', async ({ page }) => {
  await openLong(page);
  const h = heatmap(page);
  // First 100–199 × 100–199, so the cells are large enough to aim at.
  await typeInto(page, 'zoom-query-from', '100');
  await typeInto(page, 'zoom-query-to', '199');
  await typeInto(page, 'zoom-key-from', '100');
  await typeInto(page, 'zoom-key-to', '199');
  await expect(h).toHaveAttribute('data-row-range', '100-199');
  await expect(h).toHaveAttribute('data-col-range', '100-199');

  // Drag from drawn cell (20, 20) to (35, 35): queries and keys 120–135.
  const before = await page.getByTestId('share-link').inputValue();
  const a = await cellCentre(h, 20, 20);
  const b = await cellCentre(h, 35, 35);
  await page.mouse.move(a.x, a.y);
  await page.mouse.down();
  await page.mouse.move((a.x + b.x) / 2, (a.y + b.y) / 2, { steps: 4 });
  await expect(page.getByTestId('zoom-drag')).toBeVisible();
  await page.mouse.move(b.x, b.y, { steps: 4 });
  await page.mouse.up();
  await expect(page.getByTestId('zoom-drag')).toHaveCount(0);
  await expect(h).toHaveAttribute('data-row-range', '120-135');
  await expect(h).toHaveAttribute('data-col-range', '120-135');
  // A drag is not a click: no neuron view of the cell it started on.
  await expect(page.getByTestId('neuron-title')).toHaveCount(0);
  // 16 × 16: every row and column label is drawn, at a readable size.
  await expect(h).toHaveAttribute('data-label-step', '1');
  await expect(h).toHaveAttribute('data-row-labels', '16');
  await expect(h).toHaveAttribute('data-col-labels', '16');
  expect(Number(await attr(h, 'data-label-px'))).toBeGreaterThanOrEqual(12);
  await expect(page.getByTestId('zoom-query-from')).toHaveValue('120');
  await expect(page.getByTestId('zoom-key-to')).toHaveValue('135');
  await h.screenshot({ path: '/tmp/zoom-heatmap.png' });
  await page.screenshot({ path: '/tmp/zoom-page.png' });

  // The link holds the zoom: a fresh page opened with it shows the same range, no notice.
  await expect.poll(() => page.getByTestId('share-link').inputValue()).not.toBe(before);
  const url = await page.getByTestId('share-link').inputValue();
  await expect.poll(() => page.url()).toBe(url);
  const other = await page.context().newPage();
  const errors: string[] = [];
  other.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  other.on('pageerror', (e) => errors.push(e.message));
  await other.setViewportSize({ width: 1440, height: 900 });
  await other.goto(url);
  await expect(heatmap(other)).toHaveAttribute('data-row-range', '120-135');
  await expect(heatmap(other)).toHaveAttribute('data-col-range', '120-135');
  await expect(other.getByTestId('notice')).toHaveCount(0);
  expect(errors).toEqual([]);
  await other.close();

  // A shorter text keeps the zoom valid: the same 16 × 16 at its end, then all of a short one.
  await page.getByTestId('sentence-input').fill(Array.from({ length: 50 }, (_, i) => `w${i}`).join(' '));
  await expect(h).toHaveAttribute('data-row-range', '34-49');
  await expect(h).toHaveAttribute('data-col-range', '34-49');
  await page.getByTestId('sentence-input').fill('a b c');
  await expect(h).toHaveAttribute('data-row-range', '0-2');
  await expect(page.getByTestId('zoom-note')).toHaveCount(0);
  await expect(page.locator('body')).not.toContainText('NaN');
});

test('a tampered zoom in a link is repaired with a notice', async ({ page }) => {
  // {"t":"a b c d e f","z":[900,2,1,3]}: a range past the drawing limit, reversed.
  const json = JSON.stringify({ t: 'a b c d e f', z: [900, 2, 1, 3] });
  const b64 = Buffer.from(json).toString('base64url');
  await page.goto(`/#v1.${b64}`);
  await expect(page.getByTestId('notice')).toContainText('the zoom queries 900–2, keys 1–3 is outside 0–511 or reversed, so it is queries 2–511, keys 1–3');
  // Drawn within the text: queries 2–511 hold all 6 of its queries; keys 1–3.
  await expect(heatmap(page)).toHaveAttribute('data-row-range', '0-5');
  await expect(heatmap(page)).toHaveAttribute('data-col-range', '1-3');
});

test('Lines: the threshold draws only the strong links of a 300-token text, and is in the link', async ({ page }) => {
  await openLong(page);
  await page.getByTestId('page-lines').click();
  const lines = page.getByTestId('lines-canvas');
  await expect(lines).toHaveAttribute('data-rendered-tokens', String(N));
  // The default: weight ≥ 0.05, at most 20 links per query.
  await expect(lines).toHaveAttribute('data-threshold', '0.05');
  await expect(page.getByTestId('lines-threshold-value')).toHaveValue('0.050');
  await expect(lines).toHaveAttribute('aria-label', /line opacity = weight · weights ≥ 0\.050/);
  const atDefault = Number(await attr(lines, 'data-lines'));
  expect(atDefault).toBeGreaterThan(0);
  expect(atDefault).toBeLessThanOrEqual(N * 20);
  await page.screenshot({ path: '/tmp/lines-threshold.png' });
  await lines.screenshot({ path: '/tmp/lines-threshold-canvas.png' });

  // Every line (0): thousands, the hairball the threshold avoids.
  await page.getByTestId('lines-threshold-value').fill('0');
  await page.getByTestId('lines-threshold-value').press('Enter');
  await expect(lines).toHaveAttribute('data-threshold', '0');
  await expect.poll(async () => Number(await attr(lines, 'data-lines'))).toBeGreaterThan(10 * atDefault);
  const every = Number(await attr(lines, 'data-lines'));
  await page.screenshot({ path: '/tmp/lines-every.png' });

  // The slider, with the keyboard: up to 0.1, fewer lines.
  await page.getByTestId('lines-threshold-value').fill('0.095');
  await page.getByTestId('lines-threshold-value').press('Enter');
  await expect(lines).toHaveAttribute('data-threshold', '0.095');
  await page.getByTestId('lines-threshold').focus();
  await page.keyboard.press('ArrowRight');
  await expect(lines).toHaveAttribute('data-threshold', '0.1');
  await expect(page.getByTestId('lines-threshold-value')).toHaveValue('0.100');
  const strong = Number(await attr(lines, 'data-lines'));
  expect(strong).toBeLessThanOrEqual(atDefault);
  expect(strong).toBeLessThanOrEqual(N * 10);
  console.log(`lines at 300 tokens: ${every} at ≥ 0 (drawn ≥ 0.005), ${atDefault} at ≥ 0.05, ${strong} at ≥ 0.1`);

  // The link keeps it.
  const url = await page.getByTestId('share-link').inputValue();
  await expect.poll(() => page.url()).toBe(url);
  await page.goto('about:blank');
  await page.goto(url);
  await expect(page.getByTestId('lines-canvas')).toHaveAttribute('data-threshold', '0.1');
  await expect(page.getByTestId('lines-canvas')).toHaveAttribute('data-lines', String(strong));
  await expect(page.getByTestId('notice')).toHaveCount(0);
});
