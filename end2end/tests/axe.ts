import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { type Page } from '@playwright/test';

const require = createRequire(import.meta.url);
/** axe-core from node_modules (no CDN). */
const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/**
 * The serious and critical accessibility violations axe-core finds on the page, one line
 * each: `rule (impact): target — summary`.
 */
export async function seriousViolations(page: Page): Promise<string[]> {
  await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async () => {
    // @ts-expect-error axe is the injected global.
    const result = await window.axe.run(document, { resultTypes: ['violations'] });
    return result.violations as {
      id: string;
      impact: string;
      nodes: { target: string[]; failureSummary: string }[];
    }[];
  });
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) =>
      v.nodes.map(
        (n) => `${v.id} (${v.impact}): ${n.target.join(' ')} — ${n.failureSummary.replace(/\s+/g, ' ').slice(0, 160)}`,
      ),
    );
}
