import type { Queryable } from '../../db/types.js';
import { ConfigError, type Env } from '../../env.js';
import type { Logger } from '../../logger.js';
import { type AddressPolicy, addressPolicy } from './address-policy.js';
import { startWebhookWorker, type WebhookWorker } from './worker.js';

/** The operator's WEBHOOK_ALLOWED_HOSTS as a policy; a bad entry stops the start with a line naming it. */
export function addressPolicyFromEnv(env: Env): AddressPolicy {
  try {
    return addressPolicy(env.WEBHOOK_ALLOWED_HOSTS);
  } catch (error) {
    throw new ConfigError(`Invalid configuration:\n  WEBHOOK_ALLOWED_HOSTS: ${(error as Error).message}`);
  }
}

export function webhookWorkerFromEnv(env: Env, sql: Queryable, logger: Logger, policy: AddressPolicy): WebhookWorker {
  return startWebhookWorker({
    sql,
    logger,
    policy,
    timeoutMs: env.WEBHOOK_TIMEOUT_MS,
    pollMs: env.WEBHOOK_POLL_MS,
    concurrency: env.WEBHOOK_CONCURRENCY,
    baseDelayMs: env.WEBHOOK_BASE_DELAY_MS,
    maxDelayMs: env.WEBHOOK_MAX_DELAY_MS,
  });
}
