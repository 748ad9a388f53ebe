import type postgres from 'postgres';

/** The postgres.js pool. */
export type Sql = postgres.Sql<Record<string, never>>;
export type TransactionSql = postgres.TransactionSql<Record<string, never>>;
/** What data modules take: anything that runs queries, so a pool and a transaction both fit. */
export type Queryable = postgres.ISql<Record<string, never>>;
/** A piece of a statement (a tagged template not run by itself), interpolated into others. */
export type Fragment = postgres.PendingQuery<postgres.Row[]>;
