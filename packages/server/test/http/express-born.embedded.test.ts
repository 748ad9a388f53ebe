import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { expressBorn } from '../../src/http/express-born.js';

/**
 * The server's requests and responses are made with the app's prototypes from the start (so Express's own
 * Object.setPrototypeOf changes nothing), and behave as Express's own do, before the app is adopted too. No database
 * is involved: runs once.
 */

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

function appWithRoute() {
  const app = express();
  app.set('etag', false);
  app.get('/echo/:id', (req, res) => {
    res.status(201).json({ id: req.params.id, header: req.get('x-echo'), query: req.query.q });
  });
  return app;
}

async function serve(server: Server): Promise<string> {
  servers.push(server);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('expressBorn', () => {
  it("makes each request and response with the app's prototypes, and Express answers them as usual", async () => {
    const app = appWithRoute();
    const born = expressBorn();
    born.adopt(app);
    const server = createServer({ IncomingMessage: born.IncomingMessage, ServerResponse: born.ServerResponse });
    const seen: boolean[] = [];
    // Before Express sees them: what node:http made.
    server.on('request', (req: IncomingMessage, res: ServerResponse) => {
      seen.push(Object.getPrototypeOf(req) === app.request, Object.getPrototypeOf(res) === app.response);
    });
    server.on('request', app);
    const origin = await serve(server);
    for (let i = 0; i < 2; i++) {
      const response = await fetch(`${origin}/echo/abc?q=${i}`, { headers: { 'x-echo': 'hello' } });
      expect(response.status).toBe(201);
      expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(await response.json()).toEqual({ id: 'abc', header: 'hello', query: String(i) });
    }
    expect(seen).toEqual([true, true, true, true]);
  });

  it('makes plain node:http objects until the app is adopted, which Express then answers the usual way', async () => {
    const app = appWithRoute();
    const born = expressBorn();
    const server = createServer({ IncomingMessage: born.IncomingMessage, ServerResponse: born.ServerResponse });
    const seen: boolean[] = [];
    server.on('request', (req: IncomingMessage) => seen.push(Object.getPrototypeOf(req) === app.request));
    server.on('request', app);
    const origin = await serve(server);
    const before = await fetch(`${origin}/echo/early`, { headers: { 'x-echo': 'first' } });
    expect(await before.json()).toEqual({ id: 'early', header: 'first' });
    born.adopt(app);
    const after = await fetch(`${origin}/echo/late`, { headers: { 'x-echo': 'second' } });
    expect(await after.json()).toEqual({ id: 'late', header: 'second' });
    expect(seen).toEqual([false, true]);
  });
});
