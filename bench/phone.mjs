// The phone rows of the benchmark (bench/run.mjs `--only phone`): their targets and their
// part of the report and the table.

import { DESKTOP } from './page.mjs';

export const PHONE_TARGETS = { firstPaintMs: 1500, interactionP95Ms: 50, tokens: 64 };
// Typing on the phone: this sentence is typed a character at a time after the 64-token
// text, each keystroke timed to the next painted frame and to its last canvas painted.
export const TYPED = { quick: ' and the dog', full: ' and then the dog ran home' };

export function phoneTargets(phone, desktopInteraction, desktopLoad, add) {
  const name = phone.device.label;
  const desk = desktopInteraction?.find((c) => c.tokens === phone.interaction.tokens);
  add('phone.first-heatmap', `${name} navigation → first heatmap ≤ ${PHONE_TARGETS.firstPaintMs} ms`, `≤ ${PHONE_TARGETS.firstPaintMs} ms`,
    phone.load.firstPaintMs <= PHONE_TARGETS.firstPaintMs,
    `${phone.load.firstPaintMs.toFixed(0)} ms (median of ${phone.load.loads}` +
      (desktopLoad ? `; desktop ${desktopLoad.firstPaintMs.toFixed(0)} ms)` : ')'));
  add('phone.interaction', `${name} interaction p95 at ${phone.interaction.label} ≤ ${PHONE_TARGETS.interactionP95Ms} ms`,
    `p95 ≤ ${PHONE_TARGETS.interactionP95Ms} ms`,
    phone.interaction.p95 <= PHONE_TARGETS.interactionP95Ms,
    `p95 ${phone.interaction.p95.toFixed(1)} ms (p50 ${phone.interaction.p50.toFixed(1)} ms` +
      (desk ? `; desktop p95 ${desk.p95.toFixed(1)} ms)` : ')'));
}

export function phoneTable(report, lines) {
  const { device, load, interaction: c, typing: k } = report.phone;
  const v = device.context.viewport;
  lines.push('');
  lines.push(`${device.label}: ${v.width} × ${v.height} CSS px at ${device.context.deviceScaleFactor}× device pixels, touch, ` +
    `Emulation.setCPUThrottlingRate ${device.cpuSlowdown} (beside the desktop rows above, unthrottled ${DESKTOP.context.viewport.width} × ${DESKTOP.context.viewport.height}):`);
  const desk = report.interaction?.find((d) => d.tokens === c.tokens);
  lines.push(`  navigation → first heatmap painted: median ${load.firstPaintMs.toFixed(0)} ms of ${load.loads} cold loads ` +
    `(${load.samples.map((t) => t.toFixed(0)).join(', ')})` + (report.load ? `; desktop ${report.load.firstPaintMs.toFixed(0)} ms` : ''));
  lines.push(`  interaction at ${c.label}: p50 ${c.p50.toFixed(1)} ms  p95 ${c.p95.toFixed(1)} ms  max ${c.max.toFixed(1)} ms ` +
    `(${c.changes} changes, ${c.paintsPerChange} canvases painted per change)` +
    (desk ? `; desktop p50 ${desk.p50.toFixed(1)} ms, p95 ${desk.p95.toFixed(1)} ms` : ''));
  lines.push(`  typing a sentence (${k.keystrokes} keystrokes after ${k.tokensBefore} tokens) → next painted frame: ` +
    `p50 ${k.nextFrameP50.toFixed(1)} ms  p95 ${k.nextFrameP95.toFixed(1)} ms; → last canvas painted: ` +
    `p50 ${k.paintedP50.toFixed(1)} ms  p95 ${k.paintedP95.toFixed(1)} ms`);
}
