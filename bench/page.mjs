// The app's page as the benchmark drives it (bench/run.mjs, bench/phone.mjs): the devices
// it runs on, a fresh page on one, the link of a lab of a given size, waiting for the
// paints to settle, the percentiles every row reports, and typing timed a keystroke at a
// time.

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

// The lab's limit (crates/attnlab-lab/src/state/mod.rs MAX_TOKENS): a longer text is cut there.
export const MAX_TOKENS = 512;

// A fresh page on `device` (`init` as for openPage) with the lab of `config` open through
// its link, once a canvas has drawn the config's tokens (at most MAX_TOKENS) and nothing
// has been painted for `quietMs`; `errors` collects the page's uncaught errors.
export async function openLab(browser, appOrigin, device, config, { quietMs, init, timeout = 120_000 }) {
  const { context, page } = await openPage(browser, device, init);
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(appOrigin + '/' + fragment(config));
  await page.waitForFunction(
    (n) => document.querySelectorAll(`canvas[data-rendered-tokens="${n}"]`).length > 0,
    Math.min(config.tokens, MAX_TOKENS),
    { timeout },
  );
  await settle(page, quietMs);
  return { context, page, errors };
}

// The lab's state as the link carries it (crates/attnlab-link/src/lib.rs): `#v1.` and
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

// Typing on `device`: the lab of `config` open (64 tokens), `typed` appended a character
// at a time into the sentence box (its value set and an `input` event, as a keystroke
// gives). Each keystroke is timed from the event to the next painted frame (a
// requestAnimationFrame callback, then a task after it: the frame that shows the
// keystroke has been painted) and to the last canvas painted for it (`attnlab:paint`
// marks, until `quietMs` passes without one). Long tasks (PerformanceObserver) are kept.
export async function typing(browser, appOrigin, device, { config, typed, quietMs }) {
  const { context, page, errors } = await openLab(browser, appOrigin, device, config, { quietMs });
  // Long tasks (over 50 ms: input waits for them) from the first keystroke on.
  await page.evaluate(() => {
    window.__attnlabLongTasks = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) window.__attnlabLongTasks.push(e.duration);
    }).observe({ type: 'longtask' });
  });
  const frames = [];
  const painted = [];
  for (const ch of typed) {
    const r = await page.evaluate(
      async ({ ch, quiet }) => {
        performance.clearMarks('attnlab:paint');
        const box = document.querySelector('[data-testid=sentence-input]');
        const t0 = performance.now();
        box.value += ch;
        box.dispatchEvent(new InputEvent('input', { bubbles: true, data: ch, inputType: 'insertText' }));
        const nextFrame = await new Promise((resolve) =>
          requestAnimationFrame(() => setTimeout(() => resolve(performance.now() - t0), 0)));
        const all = await window.attnlabPaintsSince(t0, quiet);
        return { nextFrame, painted: all.length ? all[all.length - 1] - t0 : null };
      },
      { ch, quiet: quietMs },
    );
    frames.push(r.nextFrame);
    if (r.painted !== null) painted.push(r.painted);
  }
  const text = await page.getByTestId('sentence-input').inputValue();
  const longTasks = await page.evaluate(() => window.__attnlabLongTasks);
  await context.close();
  if (errors.length) throw new Error(`typing on ${device.label}: page errors: ${errors.join('; ')}`);
  if (!text.endsWith(typed)) throw new Error(`typing on ${device.label}: the sentence box holds ${JSON.stringify(text.slice(-40))}`);
  if (painted.length === 0) throw new Error(`typing on ${device.label}: no keystroke repainted a canvas`);
  return {
    device: device.label,
    keystrokes: frames.length,
    tokensBefore: config.tokens,
    nextFrameP50: percentile(frames, 50),
    nextFrameP95: percentile(frames, 95),
    paintedP50: percentile(painted, 50),
    paintedP95: percentile(painted, 95),
    longTasks,
    frames,
    painted,
  };
}
