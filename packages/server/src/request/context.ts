import { randomUUID } from 'node:crypto';
import { CALLER_REQUEST_ID_PATTERN, type Scope } from '@coinventory/contract';
import type { NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';
import type { RequestWork } from '../db/request-work.js';
import type { Sql } from '../db/types.js';

/** The authenticated caller: the key's workspace and the key itself. */
export interface AuthContext {
  organization: { id: string; name: string; slug: string };
  apiKey: { id: string; name: string | null; expiresAt: Date | null; scopes: Scope[]; lastUsedAt: Date | null };
}

/** What the server knows about a request, kept on res.locals rather than on a global Request type. */
export interface RequestLocals {
  requestId: string;
  auth?: AuthContext;
  /** The request's database work: what its deadline rolls back (see http/middleware/lifecycle.ts). */
  work?: RequestWork;
  /** Moves the request's deadline to `ms` from now, for a route documented to take longer (the export's read). */
  extendDeadline?: (ms: number) => void;
  /** For a write sent with Idempotency-Key: runs its handler so that its answer commits with its writes. */
  keepAnswer?: AnswerKeeper;
  /** The route's resource, read by the authentication statement (request/gated-read.ts), as the JSON it read. */
  gatedRead?: { operationId: string; json: unknown };
}

/** Runs a route's work, given the database to use, and keeps its answer with its writes (modules/idempotency). */
export type AnswerKeeper = <Body>(run: (sql: Sql) => Promise<Body>) => Promise<Body>;

export const localsOf = (res: Response): RequestLocals => res.locals as RequestLocals;

/** The authenticated caller; only called on routes behind the auth middleware. */
export function authOf(res: Response): AuthContext {
  const { auth } = localsOf(res);
  if (!auth) throw new Error('route reached without authentication');
  return auth;
}

/** The database as this request may use it: statements that its deadline can cancel and roll back. */
export function sqlOf(res: Response): Sql {
  const { work } = localsOf(res);
  if (!work) throw new Error('request reached a route without its lifecycle');
  return work.sql;
}

/** The workspace a route works in, and the database as this request may use it. */
export interface Tenant {
  sql: Sql;
  organizationId: string;
}

export function tenantOf(res: Response): Tenant {
  return { sql: sqlOf(res), organizationId: authOf(res).organization.id };
}

/**
 * A route handler that works in the caller's workspace and answers 200 with what `work` returns (its errors are
 * typed ApiErrors, answered by the error handler). The route's own argument types come from the contract.
 */
export const inTenant =
  <Args extends { res: Response }, Body>(work: (tenant: Tenant, args: Args) => Promise<Body>) =>
  async (args: Args) => {
    const tenant = tenantOf(args.res);
    const { keepAnswer } = localsOf(args.res);
    const body = keepAnswer ? await keepAnswer((sql) => work({ ...tenant, sql }, args)) : await work(tenant, args);
    return { status: 200 as const, body };
  };

/** Gives every request an id, echoed as X-Request-Id, and logs one line when the response is sent. */
export function requestContext(logger: Logger) {
  return (req: Request, res: Response, next: NextFunction) => {
    const incoming = req.get('x-request-id');
    const requestId = incoming && CALLER_REQUEST_ID_PATTERN.test(incoming) ? incoming : `req_${randomUUID()}`;
    localsOf(res).requestId = requestId;
    res.setHeader('X-Request-Id', requestId);
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const locals = localsOf(res);
      // The Authorization header and query strings (which may carry search text) are never logged.
      logger.info(
        {
          requestId,
          method: req.method,
          // The full path (a router sees only its own part), without the query string.
          path: req.originalUrl.split('?')[0],
          status: res.statusCode,
          durationMs: Number(process.hrtime.bigint() - started) / 1e6,
          organizationId: locals.auth?.organization.id,
          keyId: locals.auth?.apiKey.id,
        },
        'request',
      );
    });
    next();
  };
}
