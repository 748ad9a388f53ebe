import type { KeyMode, Scope } from '@coinventory/contract';
import type { Response } from 'express';
import type { RequestWork } from '../db/request-work.js';
import type { TransactionSql } from '../db/types.js';

/** The authenticated caller: the key's organization and the key itself. */
export interface Caller {
  /** The organization the key reaches: the workspace for a live key, its sandbox for a test key. */
  organization: { id: string; name: string; slug: string };
  mode: KeyMode;
  apiKey: { id: string; name: string | null; expiresAt: Date | null; scopes: Scope[]; lastUsedAt: Date | null };
}

/**
 * A write sent with Idempotency-Key whose answer is not kept yet (modules/idempotency makes it). The pipeline claims
 * the key inside the write's transaction, and keeps the answer in that same transaction: a kept answer always means
 * committed writes.
 */
export interface IdempotentWrite {
  /** Takes the key's lock in `tx`; refused (409) when another request holds it or has answered meanwhile. */
  claim(tx: TransactionSql): Promise<void>;
  /** Keeps the answer, in the transaction of the writes it answers. */
  keep(tx: TransactionSql, status: number, body: string): Promise<void>;
  /**
   * Runs the write while this process holds the key: a duplicate that arrives meanwhile is refused at once, and a
   * retry may run (or replay) once it has committed or rolled back, even when the caller hung up before.
   */
  hold<T>(write: () => Promise<T>): Promise<T>;
}

/**
 * What the middleware before a contract route learned about its request. Each middleware fills its own part; the
 * handlers never read it: the pipeline (request/pipeline.ts) turns it into the context a handler is given.
 */
export interface RequestState {
  readonly requestId: string;
  /** Set by the lifecycle: the request's database work, which its deadline rolls back (db/request-work.ts). */
  work?: RequestWork;
  /** Set by the lifecycle: moves the request's deadline to `ms` from now (a route documented to take longer). */
  extendDeadline?: (ms: number) => void;
  /** Set by authentication. */
  caller?: Caller;
  /** Set by authentication on a route with a gated read (request/gated-read.ts): the object's JSON, or null. */
  gatedRead?: { operationId: string; json: unknown };
  /** Set by the idempotency middleware for a write to run once. */
  idempotency?: IdempotentWrite;
}

// Keyed by the response, which lives exactly as long as the request; nothing of it goes on res.locals.
const states = new WeakMap<Response, RequestState>();

/** Starts the request's state: the first middleware calls it. */
export function startRequestState(res: Response, requestId: string): RequestState {
  const state: RequestState = { requestId };
  states.set(res, state);
  return state;
}

/** The request's state; every request has one from its first middleware on. */
export function requestStateOf(res: Response): RequestState {
  const state = states.get(res);
  if (!state) throw new Error('request reached the API without its request state');
  return state;
}

/** The request's state, when it got as far as having one (an error handler may see a request that did not). */
export const maybeRequestStateOf = (res: Response): RequestState | undefined => states.get(res);
