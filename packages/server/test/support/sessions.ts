import type { TransactionSql } from '../../src/db/types.js';
import type { TestServer } from './server.js';
import { secondPool } from './sync.js';

/** Holds a row lock (or an uncommitted insert) from another session until `release()`. */
export async function holdInOtherSession(server: TestServer, statement: (tx: TransactionSql) => Promise<unknown>) {
  const other = await secondPool(server.database);
  let release!: () => void;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  let held!: () => void;
  const holding = new Promise<void>((resolve) => {
    held = resolve;
  });
  const done = other.sql
    .begin(async (tx) => {
      await statement(tx);
      held();
      await released;
      // Rolled back: the holder itself changes nothing.
      throw new Error('release');
    })
    .catch(() => {});
  await holding;
  return {
    release: async () => {
      release();
      await done;
      await other.end();
    },
  };
}
