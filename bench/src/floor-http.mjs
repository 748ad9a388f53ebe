import { createServer } from 'node:http';

/**
 * The HTTP floor: a bare node:http server that answers every request with the bytes the real server sent for
 * that scenario (status, headers and body captured from it), after reading the request body as any server must.
 * What the real server costs above this is its own work: routing, validation, authentication, SQL, JSON.
 * Date, Connection and Keep-Alive are left to node:http, which writes them exactly as the real server does.
 */

/**
 * @typedef {object} FloorRoute
 * @property {string} method
 * @property {string} pattern     a regular expression source the request path must match
 * @property {number} status
 * @property {string[]} headers   raw header list, name and value alternating, as captured
 * @property {string} body        base64
 */

const SET_BY_NODE = new Set(['date', 'connection', 'keep-alive']);

process.once('message', (message) => {
  const routes = /** @type {FloorRoute[]} */ (message).map((route) => {
    /** @type {string[]} */
    const headers = [];
    for (let i = 0; i + 1 < route.headers.length; i += 2) {
      const name = /** @type {string} */ (route.headers[i]);
      if (!SET_BY_NODE.has(name.toLowerCase())) headers.push(name, /** @type {string} */ (route.headers[i + 1]));
    }
    return {
      method: route.method,
      pattern: new RegExp(route.pattern),
      status: route.status,
      headers,
      body: Buffer.from(route.body, 'base64'),
    };
  });
  const server = createServer((req, res) => {
    req.on('data', () => {});
    req.on('end', () => {
      const path = req.url ?? '/';
      const route = routes.find((r) => r.method === req.method && r.pattern.test(path));
      if (!route) {
        res.writeHead(404).end();
        return;
      }
      res.writeHead(route.status, route.headers);
      res.end(route.body);
    });
  });
  server.keepAliveTimeout = 5_000;
  server.listen(0, '127.0.0.1', () => {
    const address = server.address();
    process.send?.({ port: typeof address === 'object' && address ? address.port : 0 });
  });
  process.once('SIGTERM', () => server.close(() => process.exit(0)));
  // The run ended without stopping it (interrupted): no server is left listening.
  process.once('disconnect', () => process.exit(0));
});
