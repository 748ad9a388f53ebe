import { findPostgresBin, startCluster, THROWAWAY_SETTINGS } from '@coinventory/test-server';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    postgresUrl: string;
  }
}

/** Starts one PostgreSQL cluster for the `postgres` project; each test file makes its own database in it. */
export default async function setup(project: TestProject) {
  const bin = findPostgresBin();
  if (!bin) throw new Error('PostgreSQL server binaries not found (set PG_BIN)');
  const cluster = await startCluster(bin, { settings: THROWAWAY_SETTINGS });
  project.provide('postgresUrl', cluster.url);
  return () => cluster.stop();
}
