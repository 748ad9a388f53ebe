import { API_VERSION, RATE_LIMIT } from '@coinventory/contract';
import { z } from 'zod';

/**
 * The server's configuration, read from the environment in this one place and validated at boot.
 * Nothing else reads process.env.
 */
const EnvSchema = z
  .object({
    PORT: z.coerce.number().int().min(0).max(65_535).default(3000),
    HOST: z.string().min(1).default('127.0.0.1'),
    /** A PostgreSQL URL. Without it the server runs on the embedded database in COINVENTORY_DATA_DIR. */
    DATABASE_URL: z
      .string()
      .url()
      .refine((url) => /^postgres(ql)?:\/\//.test(url), 'must start with postgres:// or postgresql://')
      .optional(),
    /** Where the embedded database keeps its files. */
    COINVENTORY_DATA_DIR: z.string().min(1).default('.coinventory/data'),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    /** Longest a single SQL statement may run before PostgreSQL cancels it (0 disables). */
    STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(0).default(10_000),
    /** Longest a request may take before it is answered with a 500; keep it above STATEMENT_TIMEOUT_MS. */
    REQUEST_TIMEOUT_MS: z.coerce.number().int().min(100).default(12_000),
    /** Connections in the pool when DATABASE_URL is set (the embedded database always uses one). */
    DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(100).default(10),
    /** How long a graceful shutdown waits for in-flight requests before closing them. */
    SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(0).default(10_000),
    /** Requests one key may make per window. The API's limit is 120 per 60 s; raise it only for load tests. */
    RATE_LIMIT_MAX_REQUESTS: z.coerce.number().int().min(1).max(1_000_000).default(RATE_LIMIT.maxRequests),
    RATE_LIMIT_WINDOW_SECONDS: z.coerce.number().int().min(1).max(86_400).default(RATE_LIMIT.windowSeconds),
    /**
     * The base URL clients use, when it is not what the server sees (behind a proxy): the protected-resource
     * metadata's `resource` and the authentication challenges are built from it.
     */
    PUBLIC_BASE_URL: z
      .string()
      .url()
      .refine((url) => /^https?:\/\//.test(url) && url.replace(/\/$/, '').endsWith(`/${API_VERSION}`), {
        message: `must be an http(s) URL ending in /${API_VERSION}`,
      })
      .transform((url) => url.replace(/\/$/, ''))
      .optional(),
    /** The marketplace's API (see README, "Marketplace sync"). Unset: deliveries are recorded locally instead. */
    MARKETPLACE_API_URL: z.string().url().optional(),
    MARKETPLACE_API_TOKEN: z.string().min(1).optional(),
    MARKETPLACE_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
    /** `on`: the server process runs the sync worker; `off`: run `coinventory-server sync-worker` separately. */
    SYNC_WORKER: z.enum(['on', 'off']).default('on'),
    SYNC_POLL_MS: z.coerce.number().int().min(10).max(60_000).default(1_000),
    SYNC_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(4),
    SYNC_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(100).default(10),
    SYNC_BASE_DELAY_MS: z.coerce.number().int().min(1).default(1_000),
    SYNC_MAX_DELAY_MS: z.coerce
      .number()
      .int()
      .min(1)
      .default(5 * 60_000),
    /** How long a worker holds a listing while delivering; must exceed MARKETPLACE_TIMEOUT_MS. */
    SYNC_LEASE_MS: z.coerce.number().int().min(1_000).default(60_000),
    /**
     * Server processes sharing the port (node:cluster, see cluster.ts). One process uses one core; more than one
     * needs DATABASE_URL, since every process must see the same keys, counts and sync jobs.
     */
    WEB_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(1),
  })
  .refine((env) => env.SYNC_LEASE_MS > env.MARKETPLACE_TIMEOUT_MS, {
    message: 'must be longer than MARKETPLACE_TIMEOUT_MS, or a slow delivery could be sent twice at once',
    path: ['SYNC_LEASE_MS'],
  })
  .refine((env) => env.WEB_CONCURRENCY === 1 || env.DATABASE_URL !== undefined, {
    message:
      'must be 1 on the embedded database, whose files one process owns; set DATABASE_URL to run several workers',
    path: ['WEB_CONCURRENCY'],
  });

export type Env = z.infer<typeof EnvSchema>;

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Parses the environment, or throws a ConfigError naming every bad variable and why. */
export function loadEnv(source: NodeJS.ProcessEnv = process.env): Env {
  const values = Object.fromEntries(Object.entries(source).filter(([, value]) => value !== ''));
  const result = EnvSchema.safeParse(values);
  if (result.success) return result.data;
  const lines = result.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
  throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
}
