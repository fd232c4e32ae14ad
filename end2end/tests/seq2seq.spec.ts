import { inflateRawSync } from 'node:zlib';
import { type Page } from '@playwright/test';
import { expect, test, toChinese } from './fixtures';
import { englishLeft } from './english';
import { seriousViolations } from './axe';

// The Decoding page's classic decoder (src/pages/decoding/seq2seq_*.rs,
// attnlab_pages::decoding::seq2seq): a seeded bidirectional-GRU encoder and a GRU decoder
// with additive attention on the lab's two sentences, stepped through the target.
//
// DOM contract:
//   [data-testid=seq2seq]                  data-step (from 1), data-steps (target words), data-feed on|off
//   [data-testid=seq2seq-needs-cross]      self mode: the notice, with
//   button[data-testid=seq2seq-switch-cross] which switches the lab to two sentences
//   button[data-testid=seq2seq-prev|seq2seq-next], input[data-testid=seq2seq-step-input]
//   input[data-testid=seq2seq-feed]        feed the context back (checkbox)
//   canvas[data-testid=seq2seq-alignment]  data-rows = rows drawn (one per word written)
//   [data-testid=seq2seq-alignment-figure] data-row-sums = each drawn row's sum, comma separated
//   [data-testid=seq2seq-weight-row]       one per source word, data-weight = α_tj of the step shown
//   [data-testid=seq2seq-row-sum]          data-sum = the step's Σ_j α_tj
//   [data-testid=seq2seq-delta]            data-delta = max |Δα| feed on/off over rows 1 … t; data-first = row 1's

const section = (page: Page) => page.getByTestId('seq2seq');

async function openDecoding(page: Page, hash = '') {
  await page.goto('/' + hash);
  await expect(page.getByTestId('token-strip').getByTestId('token').first()).toBeVisible();
  await page.getByTestId('page-decoding').click();
  await expect(page.getByTestId('decoding-view')).toBeVisible();
}

/** Opens the Decoding page in self mode and switches to two sentences with the section's button. */
async function openCross(page: Page) {
  await openDecoding(page);
  await expect(page.getByTestId('seq2seq-needs-cross')).toBeVisible();
  await expect(page.getByTestId('seq2seq-alignment')).toHaveCount(0);
  await page.getByTestId('seq2seq-switch-cross').click();
  await expect(page.getByTestId('mode-cross')).toBeChecked();
  await expect(page.getByTestId('seq2seq-needs-cross')).toHaveCount(0);
  // "I love machine learning": four target words, four steps.
  await expect(section(page)).toHaveAttribute('data-steps', '4');
}

async function weights(page: Page): Promise<number[]> {
  const rows = page.getByTestId('seq2seq-weight-row');
  return (await rows.evaluateAll((els) => els.map((e) => e.getAttribute('data-weight')))).map(Number);
}

test('stepping through the target adds one alignment row per word, each summing to 1', async ({ page }) => {
  await openCross(page);
  const sources = await page.getByTestId('seq2seq-weight-row').count();
  expect(sources).toBeGreaterThan(1);
  for (let t = 1; t <= 4; t++) {
    await expect(section(page)).toHaveAttribute('data-step', String(t));
    await expect(page.getByTestId('seq2seq-alignment')).toHaveAttribute('data-rows', String(t));
    await expect(page.getByTestId('seq2seq-alignment')).toHaveAttribute('data-cols', String(sources));
    const sums = (await page.getByTestId('seq2seq-alignment-figure').getAttribute('data-row-sums'))!.split(',').map(Number);
    expect(sums).toHaveLength(t);
    for (const s of sums) expect(Math.abs(s - 1)).toBeLessThan(1e-4);
    const sum = Number(await page.getByTestId('seq2seq-row-sum').getAttribute('data-sum'));
    expect(Math.abs(sum - 1)).toBeLessThan(1e-4);
    const w = await weights(page);
    expect(w).toHaveLength(sources);
    expect(Math.abs(w.reduce((a, b) => a + b, 0) - 1)).toBeLessThan(1e-4);
    await expect(page.getByTestId('seq2seq-step-of')).toContainText(`Step ${t} of 4`);
    if (t < 4) await page.getByTestId('seq2seq-next').click();
  }
  await expect(page.getByTestId('seq2seq-next')).toBeDisabled();
  await expect(page.getByTestId('seq2seq-formula')).toContainText('s_4 = GRU(s_3, [y_3; c_4])');
  await page.getByTestId('seq2seq-prev').click();
  await expect(page.getByTestId('seq2seq-alignment')).toHaveAttribute('data-rows', '3');
  await expect(page.locator('body')).not.toContainText('NaN');
});

test('switching the context feed off changes later rows, not the first, and the link keeps both', async ({ page }) => {
  await openCross(page);
  await expect(page.getByTestId('seq2seq-feed')).toBeChecked();
  const firstOn = await weights(page);
  await page.getByTestId('seq2seq-step-input').fill('3');
  await expect(section(page)).toHaveAttribute('data-step', '3');
  const thirdOn = await weights(page);
  const deltaOn = Number(await page.getByTestId('seq2seq-delta').getAttribute('data-delta'));
  expect(deltaOn).toBeGreaterThan(0);
  await expect(page.getByTestId('seq2seq-delta')).toHaveAttribute('data-first', '0');

  await page.getByTestId('seq2seq-feed').uncheck();
  await expect(section(page)).toHaveAttribute('data-feed', 'off');
  await expect(page.getByTestId('seq2seq-formula')).toContainText('s_3 = GRU(s_2, [y_2; 0])');
  const thirdOff = await weights(page);
  const moved = Math.max(...thirdOn.map((w, j) => Math.abs(w - thirdOff[j])));
  expect(moved).toBeGreaterThan(1e-4);
  expect(moved).toBeLessThanOrEqual(deltaOn + 1e-6);
  await page.getByTestId('seq2seq-prev').click();
  await page.getByTestId('seq2seq-prev').click();
  await expect(section(page)).toHaveAttribute('data-step', '1');
  expect(await weights(page)).toEqual(firstOn);

  // The link reopens the step and the switch.
  await page.getByTestId('seq2seq-next').click();
  await expect(section(page)).toHaveAttribute('data-step', '2');
  // The address holds the state (raw DEFLATE when that is shorter): wait for step 2, feed off.
  const state = (hash: string) => {
    const m = /^#v1(z?)\.([^&]*)/.exec(hash);
    if (!m) return null;
    const bytes = Buffer.from(m[2], 'base64url');
    return JSON.parse((m[1] ? inflateRawSync(bytes) : bytes).toString());
  };
  await expect.poll(() => state(new URL(page.url()).hash)?.s2).toEqual({ t: 2, f: false });
  const hash = new URL(page.url()).hash;
  await page.goto('about:blank');
  await page.goto('/' + hash);
  await expect(section(page)).toHaveAttribute('data-step', '2');
  await expect(section(page)).toHaveAttribute('data-feed', 'off');
  await expect(page.getByTestId('seq2seq-feed')).not.toBeChecked();
  await expect(page.getByTestId('seq2seq-alignment')).toHaveAttribute('data-rows', '2');
});

test('an old link opens the first step with the feed on; empty and long sentences are said', async ({ page }) => {
  const link = (state: object) => '#v1.' + Buffer.from(JSON.stringify(state)).toString('base64url');
  await openDecoding(page, link({ u: 'decoding', x: 'cross', t: 'I love machine learning' }));
  await expect(section(page)).toHaveAttribute('data-step', '1');
  await expect(section(page)).toHaveAttribute('data-feed', 'on');
  // A step past the target is kept within it.
  await openDecoding(page, link({ u: 'decoding', x: 'cross', t: 'I love machine learning', s2: { t: 99 } }));
  await expect(section(page)).toHaveAttribute('data-step', '4');
  // 500 words a side: the first 64 are run, and the section says so.
  const long = Array.from({ length: 500 }, (_, i) => `w${i}`).join(' ');
  await openDecoding(page, link({ u: 'decoding', x: 'cross', t: long, s: long }));
  await expect(page.getByTestId('seq2seq-limited')).toContainText('first 64 words');
  await expect(page.getByTestId('seq2seq-alignment')).toHaveAttribute('data-cols', '64');
  // An empty source: a sentence, no figure.
  await openDecoding(page, link({ u: 'decoding', x: 'cross', s: '   ' }));
  await expect(page.getByTestId('seq2seq-error')).toContainText('source sentence has no word');
  await expect(page.getByTestId('seq2seq-alignment')).toHaveCount(0);
  // Emoji and CJK run without NaN.
  await openDecoding(page, link({ u: 'decoding', x: 'cross', t: '我 爱 😀 🎉', s: 'I ❤️ 机器 learning 🎉' }));
  await expect(page.getByTestId('seq2seq-alignment')).toHaveAttribute('data-rows', '1');
  await expect(page.getByTestId('seq2seq')).not.toContainText('NaN');
});

test('the classic decoder in 中文: no English word, axe clean, screenshots', async ({ page }) => {
  await openCross(page);
  await page.getByTestId('seq2seq-next').click();
  await page.getByTestId('seq2seq-next').click();
  await expect(page.getByTestId('seq2seq-alignment')).toHaveAttribute('data-rows', '3');
  await section(page).screenshot({ path: '/tmp/seq2seq-en.png' });
  expect(await seriousViolations(page)).toEqual([]);
  await toChinese(page);
  await expect(page.locator('#seq2seq-title')).toHaveText('经典解码器：加性注意力');
  await expect(page.getByTestId('seq2seq-step-of')).toContainText('第 3 步，共 4 步');
  await expect.poll(() => englishLeft(page, '[data-testid=seq2seq]'), { timeout: 15_000 }).toEqual([]);
  expect(await seriousViolations(page)).toEqual([]);
  await section(page).screenshot({ path: '/tmp/seq2seq-zh.png' });
});
