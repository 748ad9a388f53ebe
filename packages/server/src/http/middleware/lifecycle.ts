import { ERRORS, type ErrorCode } from '@coinventory/contract';
import type { NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';
import { RequestWork } from '../../db/request-work.js';
import type { Sql } from '../../db/types.js';
import { errorBody } from '../../errors.js';
import { requestStateOf } from '../../request/state.js';

/** Seconds a shed or cut-off caller is told to wait: the queue drains in well under that. */
const RETRY_AFTER_SECONDS = 1;

interface InFlight {
  req: Request;
  res: Response;
  work: RequestWork;
}

/** Why a request is given up, and what its caller is told. */
const GIVE_UP = {
  deadline: { code: 'INTERNAL_SERVER_ERROR', message: 'request deadline passed: rolled back' },
  body: { code: 'REQUEST_TIMEOUT', message: 'request body not received in time' },
  shutdown: { code: 'SERVICE_UNAVAILABLE', message: 'request cut off by shutdown: rolled back' },
} as const satisfies Record<string, { code: ErrorCode; message: string }>;
type GiveUpReason = keyof typeof GIVE_UP;

/**
 * The requests one server process is working on. It bounds them (beyond `queueLimit`, requests are refused at
 * once rather than queued behind the database pool until their deadline), and it is how a shutdown finds them:
 * to tell keep-alive clients the connection closes, and to roll back what is still running at the shutdown timeout.
 */
export class InFlightRequests {
  private readonly requests = new Set<InFlight>();
  private isDraining = false;

  constructor(
    private readonly logger: Logger,
    /** Requests held at once; the one beyond it is answered 503 with Retry-After. */
    readonly queueLimit: number,
  ) {}

  get size(): number {
    return this.requests.size;
  }

  get draining(): boolean {
    return this.isDraining;
  }

  /** From now on every response says `Connection: close`, so no keep-alive client sends into a closing socket. */
  startDraining(): void {
    this.isDraining = true;
    for (const { res } of this.requests) if (!res.headersSent) res.setHeader('Connection', 'close');
  }

  /**
   * The shutdown timeout passed: every request that has not committed is rolled back and answered 503 (retry
   * elsewhere), and logged. One whose COMMIT is on the wire answers for itself once it settles. Resolves when every
   * request has answered, or after `graceMs`.
   */
  async cutOff(graceMs: number): Promise<void> {
    for (const request of this.requests) this.giveUp(request, 'shutdown');
    const deadline = Date.now() + graceMs;
    while (this.requests.size > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  }

  /** Gives up a request's work and answers for it, unless its commit is in flight: then it answers for itself. */
  giveUp({ req, res, work }: InFlight, reason: GiveUpReason): void {
    if (res.headersSent) return;
    const { requestId } = requestStateOf(res);
    const fields = { requestId, method: req.method, path: req.originalUrl.split('?')[0], reason };
    if (!work.abandon(reason)) {
      this.logger.warn(fields, `${reason}: the request's commit is in flight; it answers once the commit settles`);
      return;
    }
    const { code, message } = GIVE_UP[reason];
    // A deadline is the server's failure; a slow body or a shutdown is not.
    if (reason === 'deadline') this.logger.error(fields, message);
    else this.logger.warn(fields, message);
    if (reason !== 'deadline') {
      res.setHeader('Connection', 'close');
      if (reason === 'shutdown') res.setHeader('Retry-After', String(RETRY_AFTER_SECONDS));
    }
    res.status(ERRORS[code].status).json(errorBody(code));
  }

  track(request: InFlight): void {
    this.requests.add(request);
    request.res.on('close', () => this.requests.delete(request));
  }
}

/** Methods whose routes take a JSON body. */
export const BODY_METHODS: ReadonlySet<string> = new Set(['POST', 'PATCH']);

/** Whether the request says a body follows (chunked, or a non-zero Content-Length). */
export const announcesBody = (req: Request): boolean =>
  req.get('transfer-encoding') !== undefined || Number(req.get('content-length') ?? 0) > 0;

export interface LifecycleOptions {
  sql: Sql;
  inFlight: InFlightRequests;
  /** Longest a request may take; then its work is rolled back and it is answered 500. */
  requestTimeoutMs: number;
  /** Longest a request body may take to arrive; then it is answered 408 and nothing runs. */
  bodyTimeoutMs: number;
  /** Whether running statements can be cancelled (PostgreSQL can; the embedded database runs one at a time). */
  cancelStatements: boolean;
}

/**
 * Gives every request its database work ({@link RequestWork}), its deadline and, with a body, a body timeout.
 * When either passes, the request is given up: its statements are cancelled, its transaction rolls back, and only
 * then is it answered, so a 500 (or 408) never hides a commit.
 */
export function requestLifecycle({
  sql,
  inFlight,
  requestTimeoutMs,
  bodyTimeoutMs,
  cancelStatements,
}: LifecycleOptions) {
  return (req: Request, res: Response, next: NextFunction) => {
    const request: InFlight = { req, res, work: new RequestWork(sql, cancelStatements) };
    const state = requestStateOf(res);
    state.work = request.work;
    inFlight.track(request);
    if (inFlight.draining) res.setHeader('Connection', 'close');

    const hasBody = announcesBody(req);
    // A body still arriving when either timer fires is the caller's slowness (408), not the server's failure.
    const bodyLate = () => BODY_METHODS.has(req.method) && hasBody && !req.complete;
    let deadline = setTimeout(() => inFlight.giveUp(request, bodyLate() ? 'body' : 'deadline'), requestTimeoutMs);
    // Only a GET takes longer (the export's read): no body is late then.
    state.extendDeadline = (ms) => {
      clearTimeout(deadline);
      deadline = setTimeout(() => inFlight.giveUp(request, 'deadline'), Math.max(ms, requestTimeoutMs));
    };
    const bodyTimer = bodyLate()
      ? setTimeout(() => {
          if (bodyLate()) inFlight.giveUp(request, 'body');
        }, bodyTimeoutMs)
      : undefined;
    res.on('close', () => {
      clearTimeout(deadline);
      clearTimeout(bodyTimer);
    });
    next();
  };
}
