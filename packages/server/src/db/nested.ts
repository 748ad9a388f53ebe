import type { Sql, TransactionSql } from './types.js';

type Work = (tx: TransactionSql) => Promise<unknown>;

/**
 * A transaction handed to code written for the pool: its `begin` opens a savepoint inside the transaction instead of
 * a transaction of its own. A request whose answer must commit with its writes (Idempotency-Key) runs its service
 * this way; an error inside the service rolls back to the savepoint, and the transaction can still record it.
 */
export function asPool(tx: TransactionSql): Sql {
  return new Proxy(tx, {
    get: (target, property, receiver) =>
      property === 'begin'
        ? (...args: unknown[]) => target.savepoint(args.find((arg): arg is Work => typeof arg === 'function') as Work)
        : Reflect.get(target, property, receiver),
  }) as unknown as Sql;
}
