import type { Sql, TransactionSql } from './types.js';

/**
 * Thrown by a request's statements once the request was given up (its deadline passed, its body never came, the
 * server shut down): nothing more of it reaches the database, and its open transaction rolls back.
 */
export class WorkAbandonedError extends Error {
  override name = 'WorkAbandonedError';
  constructor(readonly reason: string) {
    super(`the request was given up (${reason}); its transaction rolls back`);
  }
}

/** What postgres.js hands back for a tagged template: a lazy query that can be cancelled once it runs. */
interface CancellableQuery {
  executed: boolean;
  cancel(): unknown;
}

const isQuery = (value: unknown): value is CancellableQuery =>
  value instanceof Promise && 'cancel' in value && 'executed' in value;

/**
 * One request's work on the database, so that an answer of 500 (or 408, or 503) can mean "nothing was committed".
 *
 * Every statement the request runs goes through `sql`, and every transaction through `sql.begin`. `abandon()` gives
 * the work up: running statements are cancelled, later ones throw {@link WorkAbandonedError}, and a transaction
 * whose callback finishes afterwards rolls back instead of committing. The one moment it cannot be given up is while
 * its COMMIT is on the wire: `abandon()` then returns false, and the caller must let the request answer for itself
 * once the commit's outcome is known. JavaScript runs one callback at a time, so "check, then mark committing" at the
 * end of the callback cannot interleave with `abandon()`.
 */
export class RequestWork {
  readonly sql: Sql;
  private abandonedFor: string | undefined;
  private committing = 0;
  private committedOnce = false;
  private readonly queries: CancellableQuery[] = [];

  constructor(
    pool: Sql,
    /** Cancel running statements on abandon (a server can; the embedded database runs one statement at a time). */
    private readonly cancelStatements: boolean,
  ) {
    this.sql = this.tracked(pool) as Sql;
  }

  get abandoned(): boolean {
    return this.abandonedFor !== undefined;
  }

  /** Whether a transaction of this request committed: its answer must then report success, never a 5xx. */
  get committed(): boolean {
    return this.committedOnce;
  }

  /**
   * Gives the work up unless a commit is in flight or done. True: nothing of it was or will be committed, and the
   * caller may answer for the request. False: the request answers for itself when its commit settles.
   */
  abandon(reason: string): boolean {
    if (this.abandonedFor !== undefined) return true;
    if (this.committing > 0 || this.committedOnce) return false;
    this.abandonedFor = reason;
    if (this.cancelStatements) {
      // Only queries that were sent: a fragment that never ran has nothing to cancel (and rejecting it would be an
      // unhandled rejection). A statement waiting for a pool connection is dropped from the pool's queue.
      for (const query of this.queries) {
        if (!query.executed) continue;
        // The cancel request goes over a connection of its own; if that fails, the statement timeout still ends it.
        const sent = query.cancel();
        if (sent instanceof Promise) sent.catch(() => {});
      }
    }
    this.queries.length = 0;
    return true;
  }

  private ensureOpen(): void {
    if (this.abandonedFor !== undefined) throw new WorkAbandonedError(this.abandonedFor);
  }

  /** `sql` (or a transaction's `tx`) whose every statement is checked and remembered for cancelling. */
  private tracked<T extends object>(target: T): T {
    return new Proxy(target, {
      apply: (fn, thisArg, args) => {
        this.ensureOpen();
        const result: unknown = Reflect.apply(fn as (...a: unknown[]) => unknown, thisArg, args);
        if (isQuery(result)) this.queries.push(result);
        return result;
      },
      // The pool's `begin` goes through the commit gate below; a transaction has none.
      get: (object, property, receiver) =>
        property === 'begin' && 'begin' in object
          ? this.begin.bind(this, object as unknown as Sql)
          : Reflect.get(object, property, receiver),
    });
  }

  private async begin(pool: Sql, ...args: unknown[]): Promise<unknown> {
    const work = args.find((arg) => typeof arg === 'function') as (tx: TransactionSql) => Promise<unknown>;
    const options = typeof args[0] === 'string' ? args[0] : '';
    this.ensureOpen();
    let committing = false;
    try {
      const result = await pool.begin(options, async (tx) => {
        // The request may have been given up while it waited for a connection.
        this.ensureOpen();
        const result = await work(this.tracked(tx));
        // Given up during the work: throwing here rolls the transaction back.
        this.ensureOpen();
        committing = true;
        this.committing += 1;
        return result;
      });
      if (committing) this.committedOnce = true;
      return result;
    } finally {
      if (committing) this.committing -= 1;
    }
  }
}
