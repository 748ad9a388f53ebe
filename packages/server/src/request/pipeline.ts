import type { Response } from 'express';
import { actAs, keyActor } from '../db/actor.js';
import type { JsonText } from '../db/json-text.js';
import type { RequestWork } from '../db/request-work.js';
import type { Queryable, TransactionSql } from '../db/types.js';
import { ApiError, found } from '../errors.js';
import type { GatedRead } from './gated-read.js';
import { type Caller, type IdempotentWrite, type RequestState, requestStateOf } from './state.js';

/**
 * A contract route's handler, from the request its middleware prepared to the `{ status, body }` ts-rest sends. The
 * one place a request's transaction is opened: a service is handed a transaction (or, to read, the request's
 * statements) and never opens one.
 *
 *   read      the handler reads through `db`: statements of the request, outside a transaction (readAnswer: the
 *             same, answering with a status of its own);
 *   readOne   a `GET /…/{id}`: the object its authentication statement read (request/gated-read.ts), or that read
 *             run by itself;
 *   write     the handler writes in `tx`, one transaction, committed; with Idempotency-Key its answer is kept in
 *             that transaction; with `?dryRun=true` it is rolled back once it has answered;
 *   send      the handler works outside a transaction (it waits on someone else); with Idempotency-Key its answer is
 *             kept afterwards.
 *
 * Each request's deadline can give its work up (db/request-work.ts): a transaction it gave up rolls back.
 */

/**
 * Told after a commit that queued work for a background worker (marketplace sync jobs, webhook deliveries), so it
 * starts on it at once instead of at its next poll.
 */
export interface WriteNotifier {
  syncQueued(): void;
  webhooksQueued(): void;
}

/** Tells nobody: for work whose queued jobs nobody waits for (operator commands, which run in their own process). */
export const quietNotifier: WriteNotifier = { syncQueued: () => {}, webhooksQueued: () => {} };

/** What a handler that reads is given. */
export interface ReadContext {
  readonly requestId: string;
  readonly caller: Caller;
  /** The caller's organization: every statement of the request filters by it. */
  readonly organizationId: string;
  /** The request's statements, outside a transaction. */
  readonly db: Queryable;
  /** Runs `read` in one read-only REPEATABLE READ transaction: everything it reads is one snapshot. */
  snapshot<T>(read: (tx: TransactionSql) => Promise<T>): Promise<T>;
  /** Moves the request's deadline to `ms` from now, for a route documented to take longer (the export's read). */
  extendDeadline(ms: number): void;
  /** Whether the request was given up (its deadline passed, the server is shutting down). */
  readonly abandoned: boolean;
}

/** What a handler that writes is given. */
export interface WriteContext {
  readonly requestId: string;
  readonly caller: Caller;
  readonly organizationId: string;
  /** The write's transaction. */
  readonly tx: TransactionSql;
  /** Told what the write queued; it is passed on to the workers once the transaction has committed, and never for a dry run. */
  readonly notify: WriteNotifier;
}

interface RouteArgs {
  res: Response;
}

/** The request as its middleware left it, for a route behind authentication. */
function prepared(res: Response): { state: RequestState; work: RequestWork; caller: Caller } {
  const state = requestStateOf(res);
  const { work, caller } = state;
  if (!work) throw new Error('request reached a route without its lifecycle');
  if (!caller) throw new Error('route reached without authentication');
  return { state, work, caller };
}

function readContext(res: Response): ReadContext {
  const { state, work, caller } = prepared(res);
  return {
    requestId: state.requestId,
    caller,
    organizationId: caller.organization.id,
    db: work.sql,
    snapshot: (read) => work.transaction(read, 'isolation level repeatable read read only'),
    extendDeadline: (ms) => state.extendDeadline?.(ms),
    get abandoned() {
      return work.abandoned;
    },
  };
}

export const read =
  <Args extends RouteArgs, Body>(run: (context: ReadContext, args: Args) => Promise<Body>) =>
  async (args: Args) => ({ status: 200 as const, body: await run(readContext(args.res), args) });

/**
 * A read whose answer PostgreSQL wrote as JSON text (a list: db/json-text.ts). ts-rest hands the body to `res.json`
 * untouched (responses are not validated), where the entity-tag middleware sends the text as it is; the contract's
 * type is the text's, so it is given as that type here, the one place the two meet.
 */
export const readText =
  <Args extends RouteArgs, Body>(run: (context: ReadContext, args: Args) => Promise<JsonText<Body>>) =>
  async (args: Args) => ({ status: 200 as const, body: (await run(readContext(args.res), args)) as unknown as Body });

/** A read that answers with a status of its own (a 304 from the export's ETag). */
export const readAnswer =
  <Args extends RouteArgs, Answer>(run: (context: ReadContext, args: Args) => Promise<Answer>) =>
  (args: Args) =>
    run(readContext(args.res), args);

/** A `GET /…/{id}` route: answers its gated read, declared beside it; 404 when there is no such object. */
export const readOne =
  <T>(gated: GatedRead<T>) =>
  async (args: RouteArgs & { params: unknown }) => {
    const { state, work, caller } = prepared(args.res);
    const done = state.gatedRead;
    const object =
      done?.operationId === gated.operationId
        ? gated.fromJson(done.json)
        : await gated.read(work.sql, caller.organization.id, args.params);
    return { status: 200 as const, body: found(object) };
  };

/** Signals a write's transaction gave, passed on only once it has committed. */
class QueuedSignals implements WriteNotifier {
  private sync = false;
  private webhooks = false;
  syncQueued() {
    this.sync = true;
  }
  webhooksQueued() {
    this.webhooks = true;
  }
  passOn(to: WriteNotifier) {
    if (this.sync) to.syncQueued();
    if (this.webhooks) to.webhooksQueued();
  }
}

const isDryRun = (args: unknown): boolean => (args as { query?: { dryRun?: unknown } }).query?.dryRun === true;

/** A write route; `notifier` hears of the work its commits queued. */
export const write =
  <Args extends RouteArgs, Body>(notifier: WriteNotifier, run: (context: WriteContext, args: Args) => Promise<Body>) =>
  async (args: Args) => {
    const { state, work, caller } = prepared(args.res);
    const signals = new QueuedSignals();
    const dryRun = isDryRun(args);
    const handler = async (tx: TransactionSql) => {
      // Every change and item movement the write records names the key that made it.
      await actAs(tx, keyActor(caller.apiKey));
      return run(
        { requestId: state.requestId, caller, organizationId: caller.organization.id, tx, notify: signals },
        args,
      );
    };
    let body: Body;
    // A dry run writes nothing, so it keeps no Idempotency-Key answer either: it neither replays nor uses up the key.
    if (dryRun) body = await work.rolledBack(handler);
    else if (state.idempotency) body = await runOnce(work, state.idempotency, handler);
    else body = await work.transaction(handler);
    if (!dryRun) signals.passOn(notifier);
    return { status: 200 as const, body };
  };

/**
 * A write sent with Idempotency-Key: its work runs in a savepoint of the transaction that claims the key, and its
 * answer (200, or the 4xx the work gave) is kept in that transaction, so a kept answer always means committed writes.
 * A 5xx keeps nothing: the transaction rolls back, and a retry runs the write.
 */
function runOnce<Body>(
  work: RequestWork,
  once: IdempotentWrite,
  handler: (tx: TransactionSql) => Promise<Body>,
): Promise<Body> {
  return once.hold(async () => {
    const outcome = await work.transaction(async (tx) => {
      await once.claim(tx);
      let result: { ok: true; body: Body } | { ok: false; error: ApiError };
      try {
        result = { ok: true, body: (await tx.savepoint((savepoint) => handler(work.track(savepoint)))) as Body };
      } catch (error) {
        if (!(error instanceof ApiError) || error.status >= 500) throw error;
        result = { ok: false, error };
      }
      const status = result.ok ? 200 : result.error.status;
      await once.keep(tx, status, JSON.stringify(result.ok ? result.body : result.error.body));
      return result;
    });
    if (!outcome.ok) throw outcome.error;
    return outcome.body;
  });
}

/**
 * A route whose work happens outside any transaction (a webhook test ping: an open transaction would hold a
 * connection, on the embedded database the only one, for as long as the receiver takes). With Idempotency-Key its
 * successful answer is kept afterwards, in a transaction of its own.
 */
export const send =
  <Args extends RouteArgs, Body>(run: (context: ReadContext, args: Args) => Promise<Body>) =>
  async (args: Args) => {
    const context = readContext(args.res);
    const { state, work } = prepared(args.res);
    const once = state.idempotency;
    if (!once) return { status: 200 as const, body: await run(context, args) };
    const body = await once.hold(async () => {
      const body = await run(context, args);
      await work.transaction(async (tx) => {
        await once.claim(tx);
        await once.keep(tx, 200, JSON.stringify(body));
      });
      return body;
    });
    return { status: 200 as const, body };
  };
