// `@coinventory/server/testing`: what other packages' tests and the benchmark start real servers and databases with.

export { API_PLANS } from '../modules/access/authenticate.js';
// Keys as the operator command makes them, for the benchmark's many-keys scenario (a thousand keys in one statement
// instead of a thousand commands).
export { generateKey, hashKey, keyHint } from '../modules/access/key-format.js';
export * from './postgres-cluster.js';
export * from './server-process.js';
