// Step 4c of the build (ARCHITECTURE.md, "The build"), called by post-build.mjs in release
// builds only (`trunk serve`'s debug builds have trunk's live-reload script inline too),
// after the lazy modules' preload is in index.html and before the service worker's list,
// whose version hashes the final index.html: adds the Content-Security-Policy to the
// built index.html. The only inline script is trunk's module loader, allowed by its
// sha256; everything else comes from the page's own origin. Styles may be inline: the app
// sets style attributes (sizes, colours) from code.

import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';

/** Adds the policy to the index.html at `file`. Returns what it did, in a line. */
export function addCsp(file) {
  let html = readFileSync(file, 'utf8');
  const hashes = [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)].map(
    ([, body]) => `'sha256-${createHash('sha256').update(body, 'utf8').digest('base64')}'`,
  );
  const policy = [
    "default-src 'self'",
    `script-src 'self' 'wasm-unsafe-eval' ${hashes.join(' ')}`.trim(),
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "connect-src 'self'",
    "worker-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'none'",
  ].join('; ');
  const meta = `<meta http-equiv="Content-Security-Policy" content="${policy}">`;
  if (html.includes('http-equiv="Content-Security-Policy"')) {
    html = html.replace(/<meta http-equiv="Content-Security-Policy"[^>]*>/, meta);
  } else {
    html = html.replace(/<meta charset="utf-8">/i, (m) => `${m}\n    ${meta}`);
  }
  writeFileSync(file, html);
  return `csp.mjs: ${hashes.length} inline script(s) allowed by hash`;
}
