// `@coinventory/test-server`: what the repository's tests and benchmark start the real server binary and throwaway
// PostgreSQL clusters with. Private: no published package exports it.

export * from './postgres-cluster.js';
export * from './server-process.js';
