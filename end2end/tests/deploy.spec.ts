import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_SENTENCE, expect, test } from './fixtures';
import { serveStatic } from '../serve.mjs';

// Deployment: dist/ from any base path, offline after the first visit, no request to
// another origin, and a reload right after typing keeps every keystroke.

const DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'dist');

test('dist/ works under a project subpath', async ({ page }) => {
  const server = await serveStatic([['/course/attnlab/', DIST]], 0);
  try {
    const port = (server.address() as { port: number }).port;
    await page.goto(`http://127.0.0.1:${port}/course/attnlab/`);
    await expect(page.getByTestId('heatmap')).toHaveAttribute('data-rendered-tokens', '11');
    await page.getByTestId('page-complexity').click();
    await expect(page.getByTestId('complexity-view')).toBeVisible();
  } finally {
    server.close();
  }
});

test('after the first visit the app reloads offline', async ({ page, context }) => {
  const others: string[] = [];
  context.on('request', (r) => {
    const url = new URL(r.url());
    if (!['127.0.0.1', 'localhost'].includes(url.hostname) && url.protocol !== 'data:') others.push(r.url());
  });
  await page.goto('/');
  await expect(page.getByTestId('heatmap')).toHaveAttribute('data-rendered-tokens', '11');
  // The service worker has installed this build's files and controls the page.
  await expect.poll(() => page.evaluate(async () => {
    const r = await navigator.serviceWorker.ready;
    return r.active?.state ?? '';
  })).toBe('activated');
  await page.evaluate(() => navigator.serviceWorker.ready);
  await context.setOffline(true);
  await page.reload();
  await expect(page.getByTestId('heatmap')).toHaveAttribute('data-rendered-tokens', '11');
  await page.locator('#sentence-input').fill('offline still works');
  await expect(page.getByTestId('token-strip').getByTestId('token')).toHaveCount(3);
  // The lazily loaded modules were installed too: a page never opened online, and a text
  // export, still open offline.
  await page.getByTestId('page-steps').click();
  await expect(page.getByTestId('steps-view')).toBeVisible();
  await page.getByTestId('page-lab').click();
  await page.getByTestId('heatmap-export-menu').first().locator('summary').click();
  const [csv] = await Promise.all([page.waitForEvent('download'), page.getByTestId('heatmap-export-csv').first().click()]);
  expect(csv.suggestedFilename()).toMatch(/\.csv$/);
  await context.setOffline(false);
  expect(others, 'requests to other origins').toEqual([]);
});

test('a reload right after typing keeps every keystroke, whatever the timing', async ({ page }) => {
  test.setTimeout(240_000);
  await page.goto('/');
  await expect(page.getByTestId('heatmap')).toHaveAttribute('data-rendered-tokens', '11');
  const input = page.locator('#sentence-input');
  // 60 reloads, each at another moment of the address bar's 200 ms throttle and its
  // write after the next paint (0 … 290 ms after the last keystroke, and with no wait).
  for (let i = 0; i < 60; i++) {
    const words = Array.from({ length: 2 + (i % 5) }, (_, w) => `w${i}x${w}`);
    await input.fill(words.slice(0, -1).join(' '));
    await input.pressSequentially(` ${words[words.length - 1]}`, { delay: i % 3 === 0 ? 0 : 15 });
    const wait = (i * 37) % 300;
    if (i % 4 !== 0) await page.waitForTimeout(wait);
    await page.reload();
    await expect(input, `reload ${i}, ${i % 4 === 0 ? 0 : wait} ms after the last keystroke`).toHaveValue(words.join(' '));
  }
  // The restored text is what is drawn, too.
  await input.fill('one two');
  await input.fill('one two three four');
  await page.reload();
  await expect(input).toHaveValue('one two three four');
  await expect(page.getByTestId('token-strip').getByTestId('token')).toHaveCount(4);
});

test('opening the address again (not a reload) opens what it names, not the last state', async ({ page }) => {
  await page.goto('/');
  const input = page.locator('#sentence-input');
  await input.fill('typed before leaving');
  await page.goto('/');
  await expect(input).toHaveValue(DEFAULT_SENTENCE);
  await input.fill('typed again');
  await page.reload();
  await expect(input).toHaveValue('typed again');
});

test('a link pasted into this tab opens as it is, even one this page wrote before', async ({ page }) => {
  await page.goto('/');
  const input = page.locator('#sentence-input');
  await input.fill('the first sentence');
  const first = await page.getByTestId('share-link').inputValue();
  // The page has put it in the address bar, then the next one.
  await expect.poll(() => page.evaluate(() => location.href)).toBe(first);
  await input.fill('the second sentence');
  const second = await page.getByTestId('share-link').inputValue();
  await expect.poll(() => page.evaluate(() => location.href)).toBe(second);
  await page.goto(first);
  await expect(input).toHaveValue('the first sentence');
});

test('a Content-Security-Policy allows only what the app needs, and nothing violates it', async ({ page }) => {
  await page.addInitScript(() => {
    (window as unknown as { violations: string[] }).violations = [];
    document.addEventListener('securitypolicyviolation', (e) =>
      (window as unknown as { violations: string[] }).violations.push(`${e.violatedDirective} ${e.blockedURI}`),
    );
  });
  await page.goto('/');
  await expect(page.getByTestId('heatmap')).toHaveAttribute('data-rendered-tokens', '11');
  const policy = await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content');
  expect(policy).toContain("default-src 'self'");
  expect(policy).toContain("object-src 'none'");
  expect(policy).not.toMatch(/(^|\s)'unsafe-eval'/);
  // Exercise what loads or makes things: the export menu, the workers.
  await page.getByTestId('heatmap-export-menu').locator('summary').click();
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('heatmap-export-png').click()]);
  expect(download.suggestedFilename()).toMatch(/\.png$/);
  await page.getByTestId('page-complexity').click();
  await page.getByTestId('complexity-max-n').selectOption('2048');
  await page.getByTestId('complexity-start').click();
  await expect(page.getByTestId('complexity-row').first()).toBeVisible({ timeout: 30_000 });
  await page.getByTestId('complexity-cancel').click();
  expect(await page.evaluate(() => (window as unknown as { violations: string[] }).violations)).toEqual([]);
});

test('the lazily loaded modules\' loader is fetched beside the bindings, not after them', async ({ page }) => {
  const started = new Set<string>();
  page.on('request', (r) => started.add(new URL(r.url()).pathname.split('/').pop()!));
  await page.goto('/');
  await expect(page.getByTestId('heatmap')).toHaveAttribute('data-rendered-tokens', '11');
  const loader = page.locator('link[rel=modulepreload][href$="/__wasm_split.js"]');
  await expect(loader).toHaveCount(1);
  expect(await loader.getAttribute('href')).toMatch(/^\.\/lazy-[0-9a-f]{16}\/__wasm_split\.js$/);
  // Requested by the preload, in the document's order: before the wasm's preload, not by
  // the bindings' `import` once they are in (which comes after it).
  const order = [...started.keys()];
  const at = (re: RegExp) => order.findIndex((n) => re.test(n));
  expect(at(/^__wasm_split\.js$/)).toBeGreaterThan(at(/^attnlab-web-[0-9a-f]+\.js$/));
  expect(at(/^__wasm_split\.js$/)).toBeLessThan(at(/^attnlab-web-[0-9a-f]+_bg\.wasm$/));
});
