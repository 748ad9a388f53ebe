import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { WEBHOOKS } from '@coinventory/contract';
import { Webhook } from 'standardwebhooks';

/** One request the receiver got, and whether the `standardwebhooks` package verified it with each secret given. */
export interface Received {
  id: string;
  body: string;
  headers: IncomingHttpHeaders;
  /** Per secret the receiver checks with (in order): did the signature verify. */
  verified: boolean[];
  path: string;
}

/**
 * How the receiver answers: accept, fail with a status (and the body and reason phrase given), never answer, redirect,
 * or answer 200 and never stop.
 */
export type Behaviour =
  | { kind: 'accept' }
  | { kind: 'status'; status: number; body?: string; reason?: string }
  | { kind: 'hang' }
  | { kind: 'redirect'; location: string }
  | { kind: 'endless' };

/**
 * A webhook receiver on loopback, as a dealer's would be: it verifies every delivery with the reference
 * implementation of Standard Webhooks (the `standardwebhooks` package), records it, and answers as told.
 */
export class WebhookReceiver {
  readonly received: Received[] = [];
  behaviour: Behaviour = { kind: 'accept' };
  /** Connections accepted, to prove none was made. */
  connections = 0;
  private secrets: string[] = [];
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();
  port = 0;

  /** Secrets (as `whsec_…`) each delivery is verified with. */
  verifyWith(...secrets: string[]) {
    this.secrets = secrets;
  }

  async listen(port = 0): Promise<void> {
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const verified = this.secrets.map((secret) => {
          try {
            new Webhook(secret.slice(WEBHOOKS.secretPrefix.length)).verify(body, req.headers as Record<string, string>);
            return true;
          } catch {
            return false;
          }
        });
        const id = String(req.headers[WEBHOOKS.headers.id] ?? '');
        this.received.push({ id, body, headers: req.headers, verified, path: req.url ?? '' });
        const behaviour = this.behaviour;
        if (behaviour.kind === 'accept') res.writeHead(204).end();
        else if (behaviour.kind === 'status') {
          const { status, body = `refused with ${status}`, reason } = behaviour;
          (reason === undefined ? res.writeHead(status) : res.writeHead(status, reason)).end(body);
        } else if (behaviour.kind === 'redirect') res.writeHead(302, { location: behaviour.location }).end();
        else if (behaviour.kind === 'endless') {
          res.writeHead(200, { 'content-type': 'text/plain' });
          const chunk = 'x'.repeat(16 * 1024);
          const pump = () => {
            while (!res.destroyed && res.write(chunk)) {}
            if (!res.destroyed) res.once('drain', pump);
          };
          pump();
        }
        // 'hang': never answers; the socket is closed when the receiver is.
      });
    });
    server.on('connection', (socket: Socket) => {
      this.connections += 1;
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
    server.listen(port, '127.0.0.1');
    await once(server, 'listening');
    this.server = server;
    this.port = (server.address() as AddressInfo).port;
  }

  url(path = '/hooks') {
    return `http://127.0.0.1:${this.port}${path}`;
  }

  /** Verified deliveries' webhook ids: what arrived intact. */
  verifiedIds(secretIndex = 0): Set<string> {
    return new Set(this.received.filter((r) => r.verified[secretIndex]).map((r) => r.id));
  }

  /** Stops listening and drops every open connection (the receiver is down; its port refuses connections). */
  async close(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

/** Waits until `check` holds, polling; fails with `what` after `timeoutMs`. */
export async function eventually(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
