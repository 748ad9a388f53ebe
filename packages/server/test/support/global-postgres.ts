import { findPostgresBin, startCluster, THROWAWAY_SETTINGS } from '@coinventory/test-server';
import type { TestProject } from 'vitest/node';
import { createSql } from '../../src/db/connect.js';
import { migrate } from '../../src/db/migrate.js';

declare module 'vitest' {
  export interface ProvidedContext {
    postgresUrl: string;
    /** A database of the cluster that holds every migration and nothing else: test databases are copies of it. */
    postgresTemplate: string;
  }
}

/** The migrated database createTestDatabase copies (see there). Nothing stays connected to it: a copy needs that. */
const TEMPLATE = 'coinventory_migrated';

/**
 * Starts one PostgreSQL cluster for the `postgres` project; each test file makes its own database in it. The
 * migrations run once, here, into a template database that the files' databases are created from (as the `embedded`
 * project starts from a migrated image): about half a second of two processes' CPU each, over some eighty files. The
 * migrations themselves stay tested: test/db runs them on empty databases.
 */
export default async function setup(project: TestProject) {
  const bin = findPostgresBin();
  if (!bin) throw new Error('PostgreSQL server binaries not found (set PG_BIN)');
  const cluster = await startCluster(bin, { settings: THROWAWAY_SETTINGS });
  try {
    const admin = createSql(cluster.url, { max: 1, statementTimeoutMs: 0 });
    try {
      await admin`CREATE DATABASE ${admin(TEMPLATE)}`;
    } finally {
      await admin.end();
    }
    const url = new URL(cluster.url);
    url.pathname = `/${TEMPLATE}`;
    const template = createSql(url.toString(), { max: 1, statementTimeoutMs: 0 });
    try {
      await migrate(template);
    } finally {
      await template.end();
    }
  } catch (error) {
    cluster.stop();
    throw error;
  }
  project.provide('postgresUrl', cluster.url);
  project.provide('postgresTemplate', TEMPLATE);
  return () => cluster.stop();
}
