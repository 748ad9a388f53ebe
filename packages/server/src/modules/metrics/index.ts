/** Prometheus metrics: the process's registry, the request and pool instruments, and `GET /metrics`. */
export { serveClusterMetrics, shareWithPrimary } from './cluster.js';
export { createMetrics, type Metrics } from './registry.js';
export { METRICS_PATH, metricsRoute } from './routes.js';
