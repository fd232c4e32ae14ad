import { type Page } from '@playwright/test';
import { expect, test } from './fixtures';

// "Why attention" on the complexity page (src/pages/complexity/why_attention.rs,
// attnlab_pages::complexity::why): Table 1 of "Attention Is All You Need" for chosen numbers
// and the figure of which inputs reach output i after L layers.
//
// DOM contract:
//   input[data-testid=why-n|why-d|why-r|why-layers|why-output], select[data-testid=why-k]
//   [data-testid=why-table-<layer>]   data-path = maximum path length (layer: recurrent,
//                                     convolution, self-attention, restricted)
//   [data-testid=why-reach]           data-layers, data-output
//   [data-testid=why-row-<layer>]     data-reached = inputs that reach output i,
//                                     data-after = the L at which every input does ('' never);
//                                     its .why-cell children carry data-path ('' not reached)
//   [data-testid=why-note]            what was clamped

async function openWhy(page: Page) {
  await page.goto('/');
  await expect(page.getByTestId('token-strip').getByTestId('token')).toHaveCount(11);
  await page.getByTestId('page-complexity').click();
  await expect(page.getByTestId('why-attention')).toBeVisible();
}

async function type(page: Page, testid: string, value: string) {
  await page.getByTestId(testid).fill(value);
  await page.getByTestId(testid).press('Enter');
}

const row = (page: Page, layer: string) => page.getByTestId(`why-row-${layer}`);
const paths = (page: Page, layer: string) =>
  row(page, layer)
    .locator('.why-cell')
    .evaluateAll((cells) => cells.map((c) => c.getAttribute('data-path') ?? ''));

test('the figure widens with L and reads off the path length; the table gives the same', async ({ page }) => {
  await openWhy(page);
  // n = 16, k = 3, r = 2, L = 2, output 8.
  await expect(page.getByTestId('why-reach')).toHaveAttribute('data-layers', '2');
  await expect(row(page, 'convolution')).toHaveAttribute('data-reached', '5'); // 2·(3 − 1) + 1
  await expect(row(page, 'restricted')).toHaveAttribute('data-reached', '9'); // 2·2·2 + 1
  await expect(row(page, 'self-attention')).toHaveAttribute('data-reached', '16');
  await expect(row(page, 'recurrent')).toHaveAttribute('data-reached', '9'); // 0 … 8
  await expect(row(page, 'recurrent')).toHaveAttribute('data-after', '');
  await expect(row(page, 'self-attention')).toHaveAttribute('data-after', '1');
  await expect(row(page, 'convolution')).toHaveAttribute('data-after', '8');
  await expect(row(page, 'restricted')).toHaveAttribute('data-after', '4');
  expect((await paths(page, 'convolution')).slice(5, 12)).toEqual(['', '2', '1', '1', '1', '2', '']);
  // One more layer: the cones widen by k − 1 and by 2r.
  await type(page, 'why-layers', '3');
  await expect(page.getByTestId('why-reach')).toHaveAttribute('data-layers', '3');
  await expect(row(page, 'convolution')).toHaveAttribute('data-reached', '7');
  await expect(row(page, 'restricted')).toHaveAttribute('data-reached', '13');
  await expect(row(page, 'self-attention')).toHaveAttribute('data-reached', '16');
  await expect(page.getByTestId('why-reach')).toContainText('after 3 layers');
  // The recurrence: input j reaches output 8 through 1 + (8 − j) arrows, later ones never.
  expect(await paths(page, 'recurrent')).toEqual(['9', '8', '7', '6', '5', '4', '3', '2', '1', '', '', '', '', '', '', '']);

  // The path length read off the figure is Table 1's: the last output, enough layers.
  await type(page, 'why-output', '15');
  await type(page, 'why-layers', '16');
  for (const layer of ['recurrent', 'convolution', 'self-attention', 'restricted']) {
    const fromFigure = Math.max(...(await paths(page, layer)).filter((p) => p !== '').map(Number));
    await expect(page.getByTestId(`why-table-${layer}`)).toHaveAttribute('data-path', String(fromFigure));
  }
  await expect(page.getByTestId('why-table-recurrent')).toHaveAttribute('data-path', '16');
  await expect(page.getByTestId('why-table-convolution')).toHaveAttribute('data-path', '15');
  await expect(page.getByTestId('why-table-restricted')).toHaveAttribute('data-path', '8');
  await expect(page.getByTestId('why-table-self-attention')).toHaveAttribute('data-path', '1');
  // A wider kernel shortens the convolution's path: k = 5, two per side.
  await page.getByTestId('why-k').selectOption('5');
  await expect(page.getByTestId('why-table-convolution')).toHaveAttribute('data-path', '8');
  await expect(page.getByTestId('why-table-convolution')).toContainText('⌈15 / 2⌉ = 8');
  await expect(page.getByTestId('why-table-convolution')).toContainText('k·n·d² = 5·16·512² = 20,971,520');
});

test('a bad value is clamped with a note, and a long sequence is drawn in part', async ({ page }) => {
  await openWhy(page);
  await type(page, 'why-layers', '40');
  await expect(page.getByTestId('why-note')).toHaveText('layers L: 40 is outside 1 … 16; 16 is used.');
  await expect(page.getByTestId('why-reach')).toHaveAttribute('data-layers', '16');
  await type(page, 'why-n', '-3');
  await expect(page.getByTestId('why-n')).toHaveValue('2');
  await expect(row(page, 'self-attention')).toHaveAttribute('data-reached', '2');
  await type(page, 'why-n', '1000');
  await expect(page.getByTestId('why-shown-note')).toContainText('first 32 of the n = 1000 positions');
  await expect(page.getByTestId('why-table-recurrent')).toHaveAttribute('data-path', '1000');
  await expect(page.getByTestId('why-attention')).not.toContainText('NaN');
});
