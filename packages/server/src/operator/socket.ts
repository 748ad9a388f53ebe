import { chmodSync, rmSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { join, resolve } from 'node:path';
import type { Logger } from 'pino';
import { z } from 'zod';
import type { Sql } from '../db/types.js';
import { executeOperatorCommand } from './run.js';
import { type CommandOutput, EXIT } from './spec.js';

/**
 * While the server owns the embedded database, operator commands reach it through this Unix socket in the data
 * directory (mode 0600: only the server's own OS user). The server runs them on its own connection, so they
 * never interleave with a request's transaction. One JSON line in ({ argv }), one JSON line out (the output).
 * The file keeps its old name, `admin.sock`: during an upgrade, a server and a command of the previous release
 * must still find each other.
 */
export const operatorSocketPath = (dataDir: string) => join(resolve(dataDir), 'admin.sock');

const RequestSchema = z.object({ argv: z.array(z.string()).max(64) }).strict();
const OutputSchema = z.object({ exitCode: z.number().int(), stdout: z.string(), stderr: z.string() });
const MAX_REQUEST_BYTES = 64 * 1024;

export interface OperatorSocket {
  close(): Promise<void>;
}

export async function serveOperatorSocket(path: string, sql: Sql, logger: Logger): Promise<OperatorSocket> {
  // The caller holds the data directory's lock, so a socket file left here belongs to a dead process.
  rmSync(path, { force: true });
  const server = createServer((socket) => {
    let received = '';
    socket.setEncoding('utf8');
    socket.on('error', () => socket.destroy());
    socket.on('data', (chunk: string) => {
      received += chunk;
      if (received.length > MAX_REQUEST_BYTES) return socket.destroy();
      const end = received.indexOf('\n');
      if (end === -1) return;
      socket.removeAllListeners('data');
      const request = RequestSchema.safeParse(safeJson(received.slice(0, end)));
      const reply = (output: CommandOutput) => socket.end(`${JSON.stringify(output)}\n`);
      if (!request.success) return reply({ exitCode: EXIT.usage, stdout: '', stderr: 'Malformed operator request.\n' });
      logger.info({ command: request.data.argv.slice(0, 2).join(' ') }, 'operator command');
      executeOperatorCommand(request.data.argv, sql)
        .then(reply)
        .catch((error: unknown) => {
          logger.error({ err: error }, 'operator command failed');
          const stderr =
            "coinventory-server: the command failed inside the server (unexpected); see the server's log\n";
          reply({ exitCode: EXIT.failure, stdout: '', stderr });
        });
    });
  });
  await new Promise<void>((resolveListen, reject) => {
    server.once('error', reject);
    server.listen(path, () => resolveListen());
  });
  chmodSync(path, 0o600);
  return {
    close: () =>
      new Promise<void>((done) => {
        server.close(() => done());
        rmSync(path, { force: true });
      }),
  };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Sends a command to a running server; null when no server listens on the socket. */
export async function sendOperatorCommand(path: string, argv: readonly string[]): Promise<CommandOutput | null> {
  return new Promise((resolveOutput, reject) => {
    const socket = createConnection(path);
    let received = '';
    socket.setEncoding('utf8');
    socket.on('connect', () => socket.write(`${JSON.stringify({ argv })}\n`));
    socket.on('data', (chunk: string) => {
      received += chunk;
    });
    socket.on('end', () => {
      const output = OutputSchema.safeParse(safeJson(received.trim()));
      if (output.success) resolveOutput(output.data);
      else reject(new Error('The server sent an unreadable reply to the operator command.'));
    });
    socket.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT' || error.code === 'ECONNREFUSED') resolveOutput(null);
      else reject(error);
    });
  });
}
