// Builds the static Storybook, serves it on 127.0.0.1 (a free port), runs every story's play
// function and a11y check with @storybook/test-runner in the system Chromium, then stops the
// server and exits with the runner's code. Extra arguments go to test-storybook.
import { spawn } from 'node:child_process';
import { createReadStream, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { extname, join, normalize, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(fileURLToPath(new URL('..', import.meta.url)));
const staticDir = join(root, 'storybook-static');
const bin = (name) => join(root, 'node_modules', '.bin', name);

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

function run(command, args) {
  return new Promise((resolvePromise) => {
    const child = spawn(command, args, { cwd: root, stdio: 'inherit' });
    child.on('exit', (code, signal) => resolvePromise(code ?? (signal ? 1 : 0)));
  });
}

function serve(dir) {
  const server = createServer((req, res) => {
    const pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    let file = normalize(join(dir, pathname));
    if (!file.startsWith(dir)) {
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
    server.listen(0, '127.0.0.1', () => resolvePromise(server));
  });
}

const skipBuild = process.argv.includes('--no-build');
const extra = process.argv.slice(2).filter((arg) => arg !== '--no-build');

if (!skipBuild) {
  const built = await run(bin('storybook'), ['build', '-o', 'storybook-static', '--quiet']);
  if (built !== 0) process.exit(built);
}

const server = await serve(staticDir);
const { port } = server.address();
const url = `http://127.0.0.1:${port}`;
console.log(`Serving storybook-static at ${url}`);

// 60 s per story: the flow stories (src/app/Flow.stories.tsx) wait for real polling and playback.
const code = await run(bin('test-storybook'), [
  '--url',
  url,
  '--browsers',
  'chromium',
  '--maxWorkers=2',
  '--testTimeout=60000',
  ...extra,
]);
server.close();
process.exit(code);
