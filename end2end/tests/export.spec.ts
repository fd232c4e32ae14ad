import { readFileSync } from 'node:fs';
import { type Page } from '@playwright/test';
import { expect, test } from './fixtures';

// Every heatmap's Export menu (src/canvas/export.rs): PNG at 2× drawn by the plot
// function, SVG, CSV and JSON with the token labels, names that say what they hold.
//
// DOM contract: under a heatmap whose canvas has data-testid T,
//   details[data-testid=T-export-menu] > summary "Export"
//   button[data-testid=T-export-png|svg|csv|json|copy], [data-testid=T-export-status]

async function save(page: Page, testid: string, what: string) {
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByTestId(`${testid}-export-${what}`).click(),
  ]);
  const file = await download.path();
  return { name: download.suggestedFilename(), bytes: readFileSync(file) };
}

test('the lab heatmap exports as PNG (2×), SVG, CSV and JSON', async ({ page }) => {
  await page.goto('/');
  const heatmap = page.getByTestId('heatmap');
  await expect(heatmap).toHaveAttribute('data-rendered-tokens', '11');
  await page.getByTestId('heatmap-export-menu').locator('summary').click();

  const json = await save(page, 'heatmap', 'json');
  expect(json.name).toMatch(/^attnlab-a-scaled-dot-product-softmax-head-0-.*\.json$/);
  const matrix = JSON.parse(json.bytes.toString('utf8'));
  expect(matrix.format).toBe('attnlab-matrix/1');
  expect(matrix.rows).toHaveLength(11);
  expect(matrix.cols).toHaveLength(11);
  expect(matrix.values).toHaveLength(11);
  for (const row of matrix.values) {
    expect(row).toHaveLength(11);
    expect(row.reduce((a: number, b: number) => a + b, 0)).toBeCloseTo(1, 5);
  }
  expect(matrix.rows[2]).toBe("didn't");
  await expect(page.getByTestId('heatmap-export-status')).toHaveText(`Saved ${json.name}.`);

  const csv = await save(page, 'heatmap', 'csv');
  expect(csv.name).toBe(json.name.replace(/\.json$/, '.csv'));
  const lines = csv.bytes.toString('utf8').trim().split('\n');
  expect(lines).toHaveLength(12);
  expect(lines[0].split(',')).toHaveLength(12);
  expect(lines[3].startsWith("didn't,")).toBe(true);
  expect(Number(lines[1].split(',')[1])).toBe(matrix.values[0][0]);

  const svg = await save(page, 'heatmap', 'svg');
  expect(svg.name).toBe(json.name.replace(/\.json$/, '.svg'));
  const parsed = await page.evaluate((text) => {
    const doc = new DOMParser().parseFromString(text, 'image/svg+xml');
    return {
      error: doc.getElementsByTagName('parsererror').length,
      root: doc.documentElement.nodeName,
      title: doc.querySelector('title')?.textContent ?? '',
      texts: [...doc.querySelectorAll('text')].map((t) => (t.textContent ?? '').trim()),
    };
  }, svg.bytes.toString('utf8'));
  expect(parsed.error).toBe(0);
  expect(parsed.root).toBe('svg');
  expect(parsed.title).toBe(matrix.title);
  expect(parsed.texts).toContain("didn't");

  const png = await save(page, 'heatmap', 'png');
  expect(png.name).toBe(json.name.replace(/\.json$/, '.png'));
  expect([...png.bytes.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const width = png.bytes.readUInt32BE(16);
  const cssWidth = await heatmap.evaluate((el) => (el as HTMLCanvasElement).clientWidth);
  expect(width).toBe(2 * cssWidth);
  expect(png.bytes.readUInt32BE(20)).toBeGreaterThan(cssWidth);
});

test('the variant\'s input exports as attnlab-tensors, with the command that draws the figure', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByTestId('heatmap')).toHaveAttribute('data-rendered-tokens', '11');
  await page.getByTestId('heatmap-export-menu').locator('summary').click();
  const doc = await save(page, 'heatmap', 'tensors');
  expect(doc.name).toBe('attnlab-a-tensors.json');
  const tensors = JSON.parse(doc.bytes.toString('utf8'));
  expect(tensors.format).toBe('attnlab-tensors/1');
  expect(tensors.query_tokens).toHaveLength(11);
  expect(tensors.key_tokens).toEqual(tensors.query_tokens);
  expect(tensors.heads).toHaveLength(4);
  for (const h of tensors.heads) {
    expect(h.q).toHaveLength(11);
    expect(h.q[0]).toHaveLength(16);
  }
  expect(tensors.score).toBe('scaled_dot');
  expect(tensors.w_o).toHaveLength(64);
  await expect(page.getByTestId('heatmap-export-status')).toContainText('attnlab compute attnlab-a-tensors.json');
  const command = page.getByTestId('heatmap-export-command');
  await expect(command).toContainText("attnlab render --state 'v1.");
  await expect(command).toContainText("--figure heatmap --variant 'A' --head 0 -o attnlab-a-scaled-dot-product-softmax-head-0-");
});

test('the difference exports too, named for what it holds', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByTestId('difference-heatmap')).toHaveAttribute('data-rendered-tokens', '11');
  await page.getByTestId('difference-heatmap-export-menu').locator('summary').click();
  const diff = await save(page, 'difference-heatmap', 'json');
  expect(diff.name).toMatch(/^attnlab-a-b-head-0\.json$/);
  const matrix = JSON.parse(diff.bytes.toString('utf8'));
  expect(matrix.value).toBe('Δ weight');
});

test('a line chart exports as PNG (2×), SVG with its title, and its points as CSV and JSON', async ({ page }) => {
  await page.goto('/');
  await page.getByTestId('page-scaling').click();
  const chart = page.getByTestId('scaling-spread-chart');
  await expect(chart).toHaveAttribute('data-legend', /.+/);
  await page.getByTestId('scaling-spread-chart-export-menu').locator('summary').click();
  const json = await save(page, 'scaling-spread-chart', 'json');
  expect(json.name).toMatch(/^attnlab-.*\.json$/);
  const doc = JSON.parse(json.bytes.toString('utf8'));
  expect(doc.format).toBe('attnlab-chart/1');
  expect(doc.series.length).toBeGreaterThanOrEqual(2);
  const points = doc.series.reduce((n: number, s: { points: unknown[] }) => n + s.points.length, 0);
  const csv = await save(page, 'scaling-spread-chart', 'csv');
  expect(csv.bytes.toString('utf8').trim().split('\n')).toHaveLength(points + 1);
  const svg = await save(page, 'scaling-spread-chart', 'svg');
  const title = await page.evaluate((text) => new DOMParser().parseFromString(text, 'image/svg+xml').querySelector('title')?.textContent, svg.bytes.toString('utf8'));
  expect(title).toBe(doc.title);
  const png = await save(page, 'scaling-spread-chart', 'png');
  const cssWidth = await chart.evaluate((el) => (el as HTMLCanvasElement).clientWidth);
  expect(png.bytes.readUInt32BE(16)).toBe(2 * cssWidth);
});

/** Parses an SVG file in the page: its root, `<title>` and any parse error. */
async function svgOf(page: Page, text: string) {
  return page.evaluate((t) => {
    const doc = new DOMParser().parseFromString(t, 'image/svg+xml');
    return {
      error: doc.getElementsByTagName('parsererror').length,
      root: doc.documentElement.nodeName,
      title: doc.querySelector('title')?.textContent ?? '',
    };
  }, text);
}

test('every head (the grid) exports as PNG (2×), SVG and all its matrices as CSV and JSON', async ({ page }) => {
  await page.goto('/');
  const grid = page.getByTestId('head-grid').first();
  await expect(grid).toHaveAttribute('data-rendered-tokens', '11');
  await page.getByTestId('head-grid-export-menu').locator('summary').click();
  const json = await save(page, 'head-grid', 'json');
  expect(json.name).toBe('attnlab-a-every-head.json');
  const doc = JSON.parse(json.bytes.toString('utf8'));
  expect(doc.format).toBe('attnlab-matrices/1');
  expect(doc.matrices.map((m: { label: string }) => m.label)).toEqual(['head 0', 'head 1', 'head 2', 'head 3']);
  for (const m of doc.matrices) {
    expect(m.rows).toHaveLength(11);
    for (const row of m.values) expect(row.reduce((a: number, b: number) => a + b, 0)).toBeCloseTo(1, 5);
  }
  const csv = (await save(page, 'head-grid', 'csv')).bytes.toString('utf8').trim().split('\n');
  expect(csv[0]).toBe('matrix,row,column,weight');
  expect(csv).toHaveLength(4 * 11 * 11 + 1);
  const svg = await save(page, 'head-grid', 'svg');
  expect(await svgOf(page, svg.bytes.toString('utf8'))).toEqual({ error: 0, root: 'svg', title: 'A · every head' });
  const png = await save(page, 'head-grid', 'png');
  expect([...png.bytes.subarray(0, 4)]).toEqual([0x89, 0x50, 0x4e, 0x47]);
  const cssWidth = await grid.evaluate((el) => (el as HTMLCanvasElement).clientWidth);
  expect(png.bytes.readUInt32BE(16)).toBe(2 * cssWidth);
});

test('the token lines export as PNG, SVG and their heads\' weights', async ({ page }) => {
  await page.goto('/');
  await page.getByTestId('page-lines').click();
  const lines = page.getByTestId('lines-canvas');
  await expect(lines).toHaveAttribute('data-rendered-tokens', '11');
  await page.getByTestId('lines-export-menu').locator('summary').click();
  const doc = JSON.parse((await save(page, 'lines', 'json')).bytes.toString('utf8'));
  expect(doc.format).toBe('attnlab-matrices/1');
  expect(doc.matrices.length).toBeGreaterThanOrEqual(1);
  expect(doc.matrices[0].rows[2]).toBe("didn't");
  const svg = await save(page, 'lines', 'svg');
  expect((await svgOf(page, svg.bytes.toString('utf8'))).title).toBe(doc.title);
  const png = await save(page, 'lines', 'png');
  const cssWidth = await lines.evaluate((el) => (el as HTMLCanvasElement).clientWidth);
  expect(png.bytes.readUInt32BE(16)).toBe(2 * cssWidth);
});

test('copy image puts the figure on the clipboard as a PNG', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.goto('/');
  const heatmap = page.getByTestId('heatmap');
  await expect(heatmap).toHaveAttribute('data-rendered-tokens', '11');
  await page.getByTestId('heatmap-export-menu').locator('summary').click();
  await page.getByTestId('heatmap-export-copy').click();
  await expect(page.getByTestId('heatmap-export-status')).toHaveText('Copied the image.');
  const copied = await page.evaluate(async () => {
    const [item] = await navigator.clipboard.read();
    const blob = await item.getType('image/png');
    const bytes = new Uint8Array(await blob.arrayBuffer());
    const view = new DataView(bytes.buffer);
    return { types: item.types, signature: [...bytes.subarray(0, 4)], width: view.getUint32(16) };
  });
  expect(copied.types).toContain('image/png');
  expect(copied.signature).toEqual([0x89, 0x50, 0x4e, 0x47]);
  const cssWidth = await heatmap.evaluate((el) => (el as HTMLCanvasElement).clientWidth);
  expect(copied.width).toBe(2 * cssWidth);
});
