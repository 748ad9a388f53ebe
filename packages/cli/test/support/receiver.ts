import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

// A webhook receiver on loopback, as a dealer's would be: it keeps every request it gets, and verifies each with the
// `standardwebhooks` package (the reference implementation of Standard Webhooks) and the secrets the test gives it.

export interface Received {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** The parsed body when its signature verified with one of the receiver's secrets; undefined when none did. */
  verified: unknown;
}

/** What the receiver does with the next requests: answer with a status, or drop the connection without answering. */
export type Answer = number | 'drop';

export interface Receiver {
  /** `http://127.0.0.1:<port>/hooks` */
  url: string;
  received: Received[];
  /** The secrets it verifies with: any one of them may sign. */
  secrets: string[];
  answer: Answer;
  /** Resolves with the received requests once `done` holds for them; rejects after `timeoutMs`. */
  waitFor(done: (received: readonly Received[]) => boolean, timeoutMs?: number): Promise<Received[]>;
  close(): Promise<void>;
}

/** The body `standardwebhooks` verified with `secret`; throws its error when the signature does not match. */
export function verifiedWith(secret: string, { body, headers }: Pick<Received, 'body' | 'headers'>): unknown {
  const plain = Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, String(value)]));
  return new Webhook(secret).verify(body, plain);
}

function verify(secrets: readonly string[], body: string, headers: IncomingHttpHeaders): unknown {
  for (const secret of secrets) {
    try {
      return verifiedWith(secret, { body, headers });
    } catch {
      // Signed with another of the secrets, or not at all.
    }
  }
  return undefined;
}

export async function startReceiver(): Promise<Receiver> {
  const waiters = new Set<() => void>();
  let server: Server | undefined;
  const receiver: Receiver = {
    url: '',
    received: [],
    secrets: [],
    answer: 204,
    waitFor: (done, timeoutMs = 20_000) =>
      new Promise((resolve, reject) => {
        const check = () => {
          if (!done(receiver.received)) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve([...receiver.received]);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`the receiver timed out; it got:\n${JSON.stringify(receiver.received, null, 2)}`));
        }, timeoutMs);
        waiters.add(check);
        check();
      }),
    close: async () => {
      server?.closeAllConnections();
      server?.close();
      if (server) await once(server, 'close');
    },
  };
  server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const { headers } = request;
      receiver.received.push({
        method: request.method ?? '',
        path: request.url ?? '',
        headers,
        body,
        verified: verify(receiver.secrets, body, headers),
      });
      if (receiver.answer === 'drop') request.socket.destroy();
      else response.writeHead(receiver.answer).end();
      for (const waiter of waiters) waiter();
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  return receiver;
}
