import { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Express } from 'express';

/**
 * node:http's request and response classes for a server whose requests an Express app answers, each object born with
 * the app's prototype. Express otherwise gives every request and response the app's prototype as it arrives
 * (`Object.setPrototypeOf`), and an object whose prototype changes after it was made is slow in V8 for the rest of its
 * life: every property read and method call on it. Express still sets the prototype; on an object that already has
 * it, that is nothing. Measured on GET /me (one process, 2 cores): about a fifth of the server's CPU per request.
 *
 * `adopt` names the app once it exists: the server is made, and listens, before the app (entry/server.ts), so the
 * few requests that arrive before it are made as plain node:http objects and given the prototype the usual way.
 */
export interface ExpressBorn {
  /** For createServer's options; node:http's own classes where they cannot be extended this way. */
  readonly IncomingMessage: typeof IncomingMessage;
  readonly ServerResponse: typeof ServerResponse;
  adopt(app: Express): void;
}

type Constructor<T, A extends unknown[]> = (this: T, ...args: A) => void;

/**
 * node:http's constructors are plain functions (Node 20 to 24), so a function can run one on an object made with
 * another prototype. Were they ever classes, that would throw: Node's own classes are used then.
 */
const callable = (fn: unknown) => !/^class\b/.test(Function.prototype.toString.call(fn));

export function expressBorn(): ExpressBorn {
  if (!callable(IncomingMessage) || !callable(ServerResponse)) {
    return { IncomingMessage, ServerResponse, adopt: () => {} };
  }
  const makeRequest = IncomingMessage as unknown as Constructor<IncomingMessage, [Socket]>;
  const makeResponse = ServerResponse as unknown as Constructor<ServerResponse, [IncomingMessage, unknown]>;
  const Request = function Request(this: IncomingMessage, socket: Socket) {
    makeRequest.call(this, socket);
  };
  Request.prototype = IncomingMessage.prototype;
  const Response = function Response(this: ServerResponse, req: IncomingMessage, options: unknown) {
    makeResponse.call(this, req, options);
  };
  Response.prototype = ServerResponse.prototype;
  return {
    IncomingMessage: Request as unknown as typeof IncomingMessage,
    ServerResponse: Response as unknown as typeof ServerResponse,
    adopt(app) {
      Request.prototype = app.request;
      Response.prototype = app.response;
    },
  };
}
