import { type Page } from '@playwright/test';
import { DEFAULT_SENTENCE, expect, test } from './fixtures';

// The app shell, as a person uses it: a sentence goes in, tokens and a heatmap come out.
//
// DOM contract (implemented by src/):
//   textarea[data-testid=sentence-input]  the sentence
//   [data-testid=token-strip]             one [data-testid=token] per token, text = token
//   canvas[data-testid=heatmap]           one attention head; gets data-rendered-tokens="<n>"
//                                         after each paint
//   [data-testid=notice]                  a message, e.g. when there is nothing to show

// UAX #29 word boundaries, whitespace dropped: the apostrophe inside "didn't" does not
// break a word (rule WB6/WB7), and the sentence has no punctuation, so 11 tokens.
const DEFAULT_TOKENS = [
  'The', 'animal', "didn't", 'cross', 'the', 'street', 'because', 'it', 'was', 'too', 'tired',
];

const input = (page: Page) => page.getByTestId('sentence-input');
const tokens = (page: Page) => page.getByTestId('token-strip').getByTestId('token');
const heatmap = (page: Page) => page.getByTestId('heatmap');
const pixels = (page: Page) =>
  heatmap(page).evaluate((canvas) => (canvas as HTMLCanvasElement).toDataURL('image/png'));

/** Loads the app and waits until the heatmap of the default sentence is painted. */
async function open(page: Page) {
  await page.goto('/');
  await expect(heatmap(page)).toHaveAttribute('data-rendered-tokens', String(DEFAULT_TOKENS.length));
}

test('loads with the default sentence: 11 tokens, a painted heatmap, no errors', async ({ page }) => {
  await open(page);
  await expect(page).toHaveTitle('attnlab — Attention Lab');
  await expect(input(page)).toHaveValue(DEFAULT_SENTENCE);
  await expect(tokens(page)).toHaveText(DEFAULT_TOKENS);
  await expect(tokens(page)).toHaveCount(11);
  await expect(heatmap(page)).toBeVisible();
});

test('typing a new sentence changes the tokens and repaints the heatmap', async ({ page }) => {
  await open(page);
  const before = await pixels(page);

  await input(page).fill('Attention is all you need.');

  // "need." splits into the word and the full stop.
  const expected = ['Attention', 'is', 'all', 'you', 'need', '.'];
  await expect(tokens(page)).toHaveText(expected);
  await expect(heatmap(page)).toHaveAttribute('data-rendered-tokens', String(expected.length));
  expect(await pixels(page), 'canvas pixels after the new sentence').not.toEqual(before);
});

test('Chinese text gives one token per ideograph', async ({ page }) => {
  await open(page);
  await input(page).fill('我爱机器学习');
  const expected = ['我', '爱', '机', '器', '学', '习'];
  await expect(tokens(page)).toHaveText(expected);
  await expect(heatmap(page)).toHaveAttribute('data-rendered-tokens', String(expected.length));
});

test('empty text shows a notice instead of failing', async ({ page }) => {
  await open(page);
  await input(page).fill('');
  await expect(page.getByTestId('notice')).toBeVisible();
  await expect(page.getByTestId('notice')).not.toBeEmpty();
  await expect(tokens(page)).toHaveCount(0);
});

test('a 1 MB paste keeps its first 20,000 characters, says so, and the page stays usable', async ({ page }) => {
  await open(page);
  const pasted = 'word '.repeat(210_000); // 1,050,000 characters
  await input(page).fill(pasted);
  await expect(page.getByTestId('text-cut')).toContainText('The text had 1050000 characters; attnlab keeps the first 20000');
  expect((await input(page).inputValue()).length).toBe(20_000);
  // 4,000 tokens: the figures draw the first 512, the strip lists 600 and counts the rest.
  await expect(heatmap(page)).toHaveAttribute('data-rendered-tokens', '512');
  await expect(tokens(page)).toHaveCount(600);
  await expect(page.getByTestId('token-more')).toHaveText('… and 3400 more tokens, not listed');
  // The rest of the state is kept, and the page still answers.
  await page.getByTestId('page-positions').click();
  await expect(page.getByTestId('page-positions')).toHaveAttribute('aria-selected', 'true');
  await page.getByTestId('page-lab').click();
  await input(page).fill('short again');
  await expect(tokens(page)).toHaveCount(2);
  await expect(page.getByTestId('text-cut')).toHaveCount(0);
});

test('a crafted link that would inflate to megabytes ends in a notice, its text recovered', async ({ page }) => {
  const { deflateRawSync } = await import('node:zlib');
  // 4 MiB of spaces after the text: a few kilobytes in the link.
  const json = `{"t":"kept from the bomb"${' '.repeat(4 << 20)}}`;
  const payload = deflateRawSync(Buffer.from(json), { level: 9 }).toString('base64url');
  expect(payload.length).toBeLessThan(20_000);
  await page.goto(`/#v1z.${payload}`);
  await expect(page.getByTestId('notice')).toContainText('damaged');
  await expect(input(page)).toHaveValue('kept from the bomb');
  await expect(heatmap(page)).toHaveAttribute('data-rendered-tokens', '4');
});
