// `@coinventory/server/testing`: what other packages' tests and the benchmark start real servers and databases with.
export * from './postgres-cluster.js';
export * from './server-process.js';
