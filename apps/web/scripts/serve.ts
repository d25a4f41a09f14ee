/**
 * Serves the exported site on 127.0.0.1: `npm run serve -w apps/web [-- --port 3000 --dir out]`.
 * Honours EVERYCELL_BASE_PATH like the build, so URLs match GitHub Pages. No dependencies.
 */
import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { parseArgs } from 'node:util';
import { createGzip } from 'node:zlib';
import { webDir } from './paths';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: process.env.PORT ?? '3000' },
    dir: { type: 'string', default: 'out' },
  },
});
const port = Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`error: --port must be a number from 0 to 65535 (got "${values.port}")`);
  process.exit(2);
}
const root = resolve(webDir, values.dir);
if (!existsSync(join(root, 'index.html'))) {
  console.error(`error: ${root}/index.html not found: run \`npm run build:site -w apps/web\` first`);
  process.exit(2);
}
const basePath = process.env.EVERYCELL_BASE_PATH ?? '';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
  '.diff': 'text/plain; charset=utf-8',
  '.patch': 'text/plain; charset=utf-8',
  '.woff2': 'font/woff2',
  '.parquet': 'application/vnd.apache.parquet',
};

/** Maps a URL path to a file under root, or undefined; never leaves root. */
function fileFor(urlPath: string): string | undefined {
  let path: string;
  try {
    path = decodeURIComponent(urlPath);
  } catch {
    return undefined;
  }
  if (basePath) {
    if (path !== basePath && !path.startsWith(`${basePath}/`)) return undefined;
    path = path.slice(basePath.length) || '/';
  }
  const candidate = normalize(join(root, path));
  if (candidate !== root && !candidate.startsWith(root + sep)) return undefined;
  for (const file of [candidate, join(candidate, 'index.html'), `${candidate}.html`]) {
    if (existsSync(file) && statSync(file).isFile()) return file;
  }
  return undefined;
}

const server = createServer((request, response) => {
  const url = new URL(request.url ?? '/', 'http://localhost');
  const file = fileFor(url.pathname);
  const notFound = join(root, '404.html');
  const target = file ?? (existsSync(notFound) ? notFound : undefined);
  if (!target) {
    response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    return;
  }
  const type = TYPES[extname(target)] ?? 'application/octet-stream';
  // Compress text like GitHub Pages does, so local measurements (Lighthouse) see realistic transfers.
  const gzip =
    /^(text\/|application\/json|image\/svg)/.test(type) &&
    /\bgzip\b/.test(String(request.headers['accept-encoding'] ?? ''));
  response.writeHead(file ? 200 : 404, {
    'content-type': type,
    vary: 'accept-encoding',
    ...(gzip ? { 'content-encoding': 'gzip' } : {}),
  });
  if (request.method === 'HEAD') response.end();
  else if (gzip) createReadStream(target).pipe(createGzip()).pipe(response);
  else createReadStream(target).pipe(response);
});

server.listen(port, '127.0.0.1', () => {
  const address = server.address();
  const actual = typeof address === 'object' && address ? address.port : port;
  console.log(`serving ${root} at http://127.0.0.1:${actual}${basePath}/`);
});

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    server.close();
    server.closeAllConnections();
  });
}
