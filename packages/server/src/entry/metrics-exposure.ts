import { isIP } from 'node:net';
import type { Env } from '../env.js';
import type { Logger } from '../logger.js';

/** Whether HOST only takes connections from this machine: a loopback address, or `localhost`. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  if (bare === 'localhost' || bare === '::1') return true;
  if (isIP(bare) === 4) return bare.startsWith('127.');
  return bare.startsWith('::ffff:127.');
}

/**
 * At start: /metrics (METRICS=on, the default) answers whoever reaches it unless METRICS_TOKEN is set. On loopback
 * that is this machine; on any other HOST (0.0.0.0 in a container) it is the network, and the metrics name the
 * routes, the pool and the sync backlog. Said once, with the three ways out.
 */
export function warnIfMetricsExposed(
  env: Pick<Env, 'METRICS' | 'METRICS_TOKEN' | 'HOST'>,
  logger: Logger,
  port: number | string,
): void {
  if (env.METRICS !== 'on' || env.METRICS_TOKEN || isLoopbackHost(env.HOST)) return;
  logger.warn(
    {
      host: env.HOST,
      port,
      fix: 'set METRICS_TOKEN (16 characters or more; Prometheus sends it as a bearer token), or METRICS=off, or HOST=127.0.0.1 behind a proxy',
    },
    `/metrics answers anyone who reaches ${env.HOST} without a token: set METRICS_TOKEN, or METRICS=off, or listen on loopback`,
  );
}
