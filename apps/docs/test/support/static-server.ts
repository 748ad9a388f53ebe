import { once } from 'node:events';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize } from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
};

/** Serves a built static site on loopback as a static host would: `/a` → `a.html`, `/a/` → `a/index.html`. */
export async function serveStatic(root: string): Promise<{ origin: string; server: Server }> {
  const server = createServer((req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname));
    const candidates = path.endsWith('/') ? [join(path, 'index.html')] : [path, `${path}.html`];
    const file = candidates
      .map((candidate) => join(root, candidate))
      .find((f) => existsSync(f) && statSync(f).isFile());
    if (!file?.startsWith(root)) {
      res.writeHead(404, { 'content-type': 'text/html' });
      res.end(existsSync(join(root, '404.html')) ? readFileSync(join(root, '404.html')) : 'not found');
      return;
    }
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
    res.end(readFileSync(file));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}
