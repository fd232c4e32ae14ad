// The app's page as the benchmark drives it (bench/run.mjs, bench/phone.mjs): the devices
// it runs on, a fresh page on one, the link of a lab of a given size, waiting for the
// paints to settle, and the percentiles every row reports.

// Where the app's rows run: a desktop window, and a phone (a 390 × 844 CSS px viewport at
// 2× device pixels, touch, the CPU slowed 4× through the DevTools protocol) whose rows
// are named with their own targets.
export const DESKTOP = { label: 'desktop', context: { viewport: { width: 1280, height: 800 } }, cpuSlowdown: 1 };
export const PHONE = {
  label: 'phone (4× CPU)',
  context: { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true },
  cpuSlowdown: 4,
};

// A fresh context (empty cache) and page on `device`, its CPU slowed as the device says
// before anything loads; `init` runs in the page before its own scripts.
export async function openPage(browser, device, init) {
  const context = await browser.newContext(device.context);
  await context.addInitScript(paintsSince);
  if (init) await context.addInitScript(init);
  const page = await context.newPage();
  if (device.cpuSlowdown !== 1) {
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: device.cpuSlowdown });
  }
  return { context, page };
}

// The lab's state as the link carries it (crates/attnlab-lab/src/fragment.rs): `#v1.` and
// base64url of JSON with short keys; leaving out `v` keeps the two default variants.
export function fragment({ tokens, heads, dModel }) {
  const words = ['the', 'cat', 'sat', 'on', 'a', 'warm', 'mat', 'and', 'watched', 'birds', 'fly', 'past'];
  const text = Array.from({ length: tokens }, (_, i) => words[i % words.length]).join(' ');
  const json = JSON.stringify({ t: text, d: dModel, h: heads });
  return '#v1.' + Buffer.from(json).toString('base64url');
}

// Installed in every page (openPage): `window.attnlabPaintsSince(t0, quiet)` waits, a frame
// at a time, until `quiet` ms pass without a new `attnlab:paint` mark at or after `t0`, and
// resolves to those marks' times.
function paintsSince() {
  window.attnlabPaintsSince = async (t0, quiet) => {
    const frame = () => new Promise((r) => requestAnimationFrame(() => r()));
    const marks = () => performance.getEntriesByName('attnlab:paint', 'mark').filter((m) => m.startTime >= t0);
    let seen = marks().length;
    let since = performance.now();
    while (performance.now() - since < quiet) {
      await frame();
      if (marks().length !== seen) {
        seen = marks().length;
        since = performance.now();
      }
    }
    return marks().map((m) => m.startTime);
  };
}

// Waits until the page has painted nothing for `quietMs`.
export async function settle(page, quietMs) {
  await page.evaluate((quiet) => window.attnlabPaintsSince(0, quiet), quietMs);
}

export function percentile(xs, p) {
  const s = [...xs].sort((a, b) => a - b);
  if (s.length === 0) return NaN;
  // Nearest rank.
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
}

export const median = (xs) => percentile(xs, 50);
