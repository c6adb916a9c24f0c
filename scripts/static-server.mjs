// A small static file server for a built site (the static Storybook): any folder, a free port on
// 127.0.0.1, byte ranges as real static hosts serve them. Used by the story and visual tests.
import { createReadStream, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { extname, join, normalize, resolve } from 'node:path';

const types = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.mp3': 'audio/mpeg',
  '.map': 'application/json; charset=utf-8',
};

/**
 * Serves `dir` under `prefix` (default '/'; e.g. '/review/storybook/' proves a build works from a
 * sub-folder), on `port` (default: a free one). Resolves with the listening server; its address
 * is `urlOf(server, prefix)`.
 */
export function serveStatic(dir, { prefix = '/', port = 0, host = '127.0.0.1' } = {}) {
  const root = resolve(dir);
  const server = createServer((req, res) => {
    const pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    if (!pathname.startsWith(prefix)) {
      res.writeHead(404).end('Not found');
      return;
    }
    let file = normalize(join(root, pathname.slice(prefix.length)));
    if (!file.startsWith(root)) {
      res.writeHead(403).end();
      return;
    }
    try {
      if (statSync(file).isDirectory()) file = join(file, 'index.html');
      statSync(file);
    } catch {
      res.writeHead(404).end('Not found');
      return;
    }
    const type = types[extname(file)] ?? 'application/octet-stream';
    // Byte ranges, as any real static host serves them: the browser can only seek in audio it can
    // fetch from an offset (the player stories seek in public/fixtures/sample.mp3).
    const { size } = statSync(file);
    const range = /^bytes=(\d*)-(\d*)$/.exec(req.headers.range ?? '');
    if (range && (range[1] || range[2])) {
      const start = range[1] ? Number(range[1]) : Math.max(0, size - Number(range[2]));
      const end = range[1] && range[2] ? Math.min(Number(range[2]), size - 1) : size - 1;
      if (start >= size || start > end) {
        res.writeHead(416, { 'Content-Range': `bytes */${size}` }).end();
        return;
      }
      res.writeHead(206, {
        'Content-Type': type,
        'Accept-Ranges': 'bytes',
        'Content-Range': `bytes ${start}-${end}/${size}`,
        'Content-Length': end - start + 1,
      });
      createReadStream(file, { start, end }).pipe(res);
      return;
    }
    res.writeHead(200, { 'Content-Type': type, 'Accept-Ranges': 'bytes', 'Content-Length': size });
    createReadStream(file).pipe(res);
  });
  return new Promise((resolvePromise) => {
    server.listen(port, host, () => resolvePromise(server));
  });
}

/** The address a server from serveStatic answers at, with its prefix. */
export function urlOf(server, prefix = '/') {
  return `http://127.0.0.1:${server.address().port}${prefix.replace(/\/$/, '')}`;
}

// `npm run serve-storybook`: the static Storybook on http://127.0.0.1:6006 (PORT overrides), as a
// reviewer opens a build. `node scripts/static-server.mjs DIR` serves another folder.
if (import.meta.url === `file://${process.argv[1]}`) {
  const dir = process.argv[2] ?? 'storybook-static';
  const server = await serveStatic(dir, { port: Number(process.env.PORT ?? 6006) });
  console.log(`Serving ${dir} at ${urlOf(server)} (Ctrl+C stops)`);
}
