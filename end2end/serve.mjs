// A tiny static file server, shared by the browser tests and the benchmark.
// Usage: node serve.mjs [port]   (default: $ATTNLAB_E2E_PORT, else 8081): serves the trunk
// build in ../dist for the browser tests. `serveStatic` (imported by bench/run.mjs) serves
// any set of directories.
// Listens on 127.0.0.1 only. No caching, no directory listings, nothing outside the
// served directories.
import { createReadStream, existsSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createServer } from 'node:http';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath, pathToFileURL } from 'node:url';

const MIME = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
  '.woff2': 'font/woff2',
};

// The file `rel` (a decoded URL path below a mount) names inside `root`, or null.
async function fileIn(root, rel) {
  const file = path.resolve(root, '.' + path.posix.normalize('/' + rel));
  if (file !== root && !file.startsWith(root + path.sep)) return null;
  const info = await stat(file).catch(() => null);
  if (info?.isDirectory()) return fileIn(root, path.posix.join(rel, 'index.html'));
  return info?.isFile() ? { file, size: info.size } : null;
}

// Serves `mounts` ([url prefix, directory], longest prefix first) on `port` of 127.0.0.1
// (0: a free one); resolves to the listening server. `cache-control: no-store`, so a
// "cold" load never hits a cache.
export function serveStatic(mounts, port = 0) {
  const roots = mounts.map(([prefix, dir]) => [prefix, path.resolve(dir)]);
  const fileFor = async (urlPath) => {
    let decoded;
    try {
      decoded = decodeURIComponent(urlPath);
    } catch {
      return null;
    }
    const mount = roots.find(([prefix]) => decoded.startsWith(prefix));
    return mount ? fileIn(mount[1], decoded.slice(mount[0].length)) : null;
  };
  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const found = req.method === 'GET' || req.method === 'HEAD' ? await fileFor(url.pathname) : null;
    if (!found) {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
      res.end(`not found: ${url.pathname}\n`);
      return;
    }
    res.writeHead(200, {
      'content-type': MIME[path.extname(found.file).toLowerCase()] ?? 'application/octet-stream',
      'content-length': found.size,
      'cache-control': 'no-store',
    });
    if (req.method === 'HEAD') res.end();
    else createReadStream(found.file).pipe(res);
  });
  return new Promise((ok) => server.listen(port, '127.0.0.1', () => ok(server)));
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'dist');
  const port = Number(process.argv[2] ?? process.env.ATTNLAB_E2E_PORT ?? 8081);
  if (!existsSync(path.join(root, 'index.html'))) {
    console.error(`serve.mjs: ${root}/index.html is missing: build the app first (trunk build --release)`);
    process.exit(1);
  }
  const server = await serveStatic([['/', root]], port);
  console.log(`serving ${root} at http://127.0.0.1:${port}`);
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.close(() => process.exit(0)));
}
