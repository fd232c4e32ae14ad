import { expect, test } from './fixtures';

// A wasm panic never leaves a dead page (src/shell/panic_banner.rs): the banner says so
// and its link reopens the page with the text as it was in the box, even text typed
// after the address was last written. The trigger exists only in the test build
// (`ATTNLAB_TEST_HOOKS=1`, set by `cargo xtask test`).

test('a panic shows the banner, and its link reloads with the typed text', async ({ page, errors }) => {
  await page.goto('/');
  const box = page.locator('#sentence-input');
  await box.fill('Every keystroke I typed survives the crash');
  await page.evaluate(() => window.dispatchEvent(new Event('attnlab:test-panic')));
  const banner = page.getByTestId('panic-banner');
  await expect(banner).toBeVisible();
  await expect(banner).toContainText('Your text is kept');
  await expect(banner.locator('pre')).toContainText('the test panic');

  await page.getByTestId('panic-reload').click();
  await expect(page.getByTestId('panic-banner')).toHaveCount(0);
  await expect(page.locator('#sentence-input')).toHaveValue('Every keystroke I typed survives the crash');
  await expect(page.getByTestId('heatmap')).toHaveAttribute('data-rendered-tokens', '7');
  // The reload mark is gone from the address.
  expect(new URL(page.url()).search).toBe('');

  // The panic's own reports, and nothing else, reached the console.
  expect(errors.length).toBeGreaterThan(0);
  for (const e of errors) expect(e).toMatch(/test panic|unreachable|RuntimeError/);
  errors.length = 0;
});
