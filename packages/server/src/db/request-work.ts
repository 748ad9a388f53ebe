import type { Queryable, Sql, TransactionSql } from './types.js';

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
 * Every statement the request runs goes through `sql` or a transaction this opens: `transaction()` commits, and
 * `rolledBack()` (a dry run) never does. `abandon()` gives the work up: running statements are cancelled, later ones
 * throw {@link WorkAbandonedError}, and a transaction whose callback finishes afterwards rolls back instead of
 * committing. The one moment it cannot be given up is while its COMMIT is on the wire: `abandon()` then returns
 * false, and the caller must let the request answer for itself once the commit's outcome is known. JavaScript runs
 * one callback at a time, so "check, then mark committing" at the end of the callback cannot interleave with
 * `abandon()`.
 */
export class RequestWork {
  /** Statements outside a transaction (reads). Transactions are opened only by the methods below. */
  readonly sql: Queryable;
  private abandonedFor: string | undefined;
  private committing = 0;
  private committedOnce = false;
  private readonly queries: CancellableQuery[] = [];

  constructor(
    private readonly pool: Sql,
    /** Cancel running statements on abandon (a server can; the embedded database runs one statement at a time). */
    private readonly cancelStatements: boolean,
  ) {
    this.sql = this.track(pool);
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

  /**
   * `sql`, a transaction or a savepoint of this request, whose every statement is checked (none runs once the work
   * is given up) and remembered for cancelling. It changes nothing else: the handle's methods are its own.
   */
  track<T extends Queryable>(handle: T): T {
    return new Proxy(handle, {
      apply: (fn, thisArg, args) => {
        this.ensureOpen();
        const result: unknown = Reflect.apply(fn as (...a: unknown[]) => unknown, thisArg, args);
        if (isQuery(result)) this.queries.push(result);
        return result;
      },
    });
  }

  /**
   * Runs `work` in one transaction and commits it, unless the work was given up before the commit: then it rolls
   * back. `options` are BEGIN's (an isolation level).
   */
  async transaction<T>(work: (tx: TransactionSql) => Promise<T>, options = ''): Promise<T> {
    this.ensureOpen();
    let committing = false;
    try {
      const result = await this.pool.begin(options, async (tx) => {
        // The request may have been given up while it waited for a connection.
        this.ensureOpen();
        const result = await work(this.track(tx));
        // Given up during the work: throwing here rolls the transaction back.
        this.ensureOpen();
        committing = true;
        this.committing += 1;
        return result;
      });
      if (committing) this.committedOnce = true;
      return result as T;
    } finally {
      if (committing) this.committing -= 1;
    }
  }

  /**
   * Runs `work` in a transaction and undoes it once it has answered (a dry run): everything it checks is checked
   * against the real tables, and its writes are rolled back to a savepoint taken before it. What then commits is
   * empty.
   */
  async rolledBack<T>(work: (tx: TransactionSql) => Promise<T>): Promise<T> {
    this.ensureOpen();
    const result = await this.pool.begin(async (tx) => {
      this.ensureOpen();
      const handle = this.track(tx);
      await handle`SAVEPOINT dry_run`;
      const answer = await work(handle);
      await handle`ROLLBACK TO SAVEPOINT dry_run`;
      return answer;
    });
    return result as T;
  }
}
