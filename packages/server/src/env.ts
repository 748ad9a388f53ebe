import { API_VERSION, DEFAULT_CHANGES_RETENTION_DAYS, RATE_LIMIT, WEBHOOKS } from '@coinventory/contract';
import { z } from 'zod';
import { parseAllowedOrigins } from './cors-origins.js';

/** An integer setting: its bounds, its default and what it does, all four shown by the help (describeSettings). */
function integer(bounds: { min: number; max?: number; default: number }, description: string) {
  const atLeast = z.coerce.number().int().min(bounds.min);
  return (bounds.max === undefined ? atLeast : atLeast.max(bounds.max)).default(bounds.default).describe(description);
}

/**
 * The server's configuration, read from the environment in this one place and validated at boot.
 * Nothing else reads process.env.
 */
const EnvShape = z.object({
  PORT: integer({ min: 0, max: 65_535, default: 3000 }, 'TCP port to listen on (0: any free port).'),
  HOST: z.string().min(1).default('127.0.0.1').describe('Address to listen on; 0.0.0.0 or :: for every interface.'),
  DATABASE_URL: z
    .string()
    .url()
    .refine((url) => /^postgres(ql)?:\/\//.test(url), 'must start with postgres:// or postgresql://')
    .optional()
    .describe('PostgreSQL URL (postgres:// or postgresql://). Unset: the embedded database.'),
  DATABASE_POOLER: z
    .enum(['none', 'transaction'])
    .default('none')
    .describe(
      'What DATABASE_URL goes through. none: PostgreSQL itself. transaction: a transaction-pooling pooler (PgBouncer with pool_mode = transaction), so no prepared statements, one statement at a time per connection, and STATEMENT_TIMEOUT_MS is not sent when connecting: set statement_timeout in the pooler (connect_query) or on the role; the server warns at start when it differs.',
    ),
  DATABASE_DIRECT_URL: z
    .string()
    .url()
    .refine((url) => /^postgres(ql)?:\/\//.test(url), 'must start with postgres:// or postgresql://')
    .optional()
    .describe(
      'The same database as DATABASE_URL, reached directly rather than through a pooler: migrations (at start, by migrate and by sync-worker) run over it. Needs DATABASE_URL. Unset: they run over DATABASE_URL.',
    ),
  COINVENTORY_DATA_DIR: z
    .string()
    .min(1)
    .default('.coinventory/data')
    .describe("The embedded database's directory (without DATABASE_URL)."),
  LOG_LEVEL: z
    .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
    .default('info')
    .describe('fatal, error, warn, info, debug, trace or silent. Logs go to stdout (see LOG_FORMAT).'),
  LOG_FORMAT: z
    .enum(['auto', 'json', 'pretty'])
    .default('auto')
    .describe('auto: readable lines when stdout is a terminal, JSON lines otherwise; json or pretty: always that.'),
  STATEMENT_TIMEOUT_MS: integer(
    { min: 0, default: 10_000 },
    'Longest one SQL statement may run before PostgreSQL cancels it (0: no limit). Sent when connecting, except with DATABASE_POOLER=transaction: then the pooler or the role sets it, and the server warns at start when it differs.',
  ),
  REQUEST_TIMEOUT_MS: integer(
    { min: 100, default: 12_000 },
    'Longest a request may take: then its statements are cancelled, its transaction rolled back, and it is answered 500. Keep it above STATEMENT_TIMEOUT_MS.',
  ),
  REQUEST_BODY_TIMEOUT_MS: integer(
    { min: 100, default: 10_000 },
    'Longest a request body may take to arrive (REQUEST_TIMEOUT_MS if that is shorter): then it is answered 408 and nothing runs.',
  ),
  REQUEST_QUEUE_LIMIT: integer(
    { min: 1, max: 100_000, default: 256 },
    'Requests one server process holds at once (running, or waiting for a database connection); more are answered 503 at once, with Retry-After: 1.',
  ),
  DATABASE_POOL_SIZE: integer(
    { min: 1, max: 100, default: 10 },
    'Connections to DATABASE_URL, per server process (the embedded database uses one).',
  ),
  SHUTDOWN_TIMEOUT_MS: integer(
    { min: 0, default: 10_000 },
    'How long SIGTERM waits for in-flight requests before closing them.',
  ),
  RATE_LIMIT_MAX_REQUESTS: integer(
    { min: 1, max: 1_000_000, default: RATE_LIMIT.maxRequests },
    'Requests one key may make per window. The API promises 120 per 60 s: raise it only for load tests.',
  ),
  RATE_LIMIT_WINDOW_SECONDS: integer(
    { min: 1, max: 86_400, default: RATE_LIMIT.windowSeconds },
    "The rate limit's sliding window.",
  ),
  AUTH_FAILURE_LIMIT: integer(
    { min: 0, max: 10_000, default: 20 },
    'Failed key lookups (unknown, expired or revoked key) one client address may make per 10 s; then its requests with keys this process has not recently verified are answered 429 without a lookup (0: off).',
  ),
  PUBLIC_BASE_URL: z
    .string()
    .url()
    .refine((url) => /^https?:\/\//.test(url) && url.replace(/\/$/, '').endsWith(`/${API_VERSION}`), {
      message: `must be an http(s) URL ending in /${API_VERSION}`,
    })
    .transform((url) => url.replace(/\/$/, ''))
    .optional()
    .describe(
      'The base URL clients use, ending in /v1, when a proxy stands in front. Unset: the address requests arrive on.',
    ),
  METRICS: z
    .enum(['on', 'off'])
    .default('on')
    .describe('on: GET /metrics answers in the Prometheus text format (outside /v1, not rate-limited); off: 404.'),
  METRICS_TOKEN: z
    .string()
    .min(16)
    .optional()
    .describe(
      'A bearer token /metrics requires (Authorization: Bearer …). Unset: /metrics answers anyone who reaches it.',
    ),
  METRICS_PORT: z.coerce
    .number()
    .int()
    .min(1)
    .max(65_535)
    .optional()
    .describe(
      'The port "coinventory-server sync-worker" serves its own /metrics on (its deliveries are counted there). Unset: none.',
    ),
  MARKETPLACE_API_URL: z
    .string()
    .url()
    .optional()
    .describe("The marketplace's API. Unset: deliveries are recorded locally instead of sent."),
  MARKETPLACE_API_TOKEN: z.string().min(1).optional().describe('The bearer token sent to MARKETPLACE_API_URL.'),
  MARKETPLACE_TIMEOUT_MS: integer(
    { min: 100, max: 120_000, default: 10_000 },
    'Longest one marketplace call may take.',
  ),
  SYNC_WORKER: z
    .enum(['on', 'off'])
    .default('on')
    .describe(
      'on: each server process runs the marketplace sync and webhook workers and the scheduled valuations; off: run "coinventory-server sync-worker" apart.',
    ),
  SYNC_POLL_MS: integer({ min: 10, max: 60_000, default: 1_000 }, 'How often an idle sync worker looks for due jobs.'),
  SYNC_CONCURRENCY: integer({ min: 1, max: 64, default: 4 }, 'Listings one sync worker delivers at once.'),
  SYNC_GIVE_UP_SECONDS: integer(
    { min: 1, max: 30 * 86_400, default: 86_400 },
    'How long a job may keep failing transiently (network, timeout, 429, 5xx) before it is given up as dead: 24 hours by default. A 4xx refusal fails it at once.',
  ),
  SYNC_BASE_DELAY_MS: integer(
    { min: 1, default: 1_000 },
    'First retry delay; it doubles with every attempt (with jitter).',
  ),
  SYNC_MAX_DELAY_MS: integer({ min: 1, default: 5 * 60_000 }, 'Longest retry delay.'),
  SYNC_LEASE_MS: integer(
    { min: 1_000, default: 60_000 },
    'How long a worker holds a listing while delivering; must exceed MARKETPLACE_TIMEOUT_MS.',
  ),
  SYNC_CIRCUIT_FAILURES: integer(
    { min: 1, max: 1_000, default: 5 },
    'Transient failures in a row, across all listings, that open the circuit: deliveries stop and one probe is sent after SYNC_CIRCUIT_OPEN_MS.',
  ),
  SYNC_CIRCUIT_OPEN_MS: integer(
    { min: 1, default: 30_000 },
    'How long the circuit stays open before its probe; it doubles with each failed probe, up to SYNC_MAX_DELAY_MS.',
  ),
  CHANGES_RETENTION_DAYS: integer(
    { min: 1, max: 3_650, default: DEFAULT_CHANGES_RETENTION_DAYS },
    'How long the changes feed keeps a change; a cursor older than that is refused and its consumer reads everything again.',
  ),
  // Each entry is checked when the server starts (modules/webhooks/from-env.ts), which names a bad one.
  WEBHOOK_ALLOWED_HOSTS: z
    .string()
    .default('')
    .describe(
      'Comma-separated host names, addresses and CIDR ranges webhook endpoints may use although private, loopback or link-local, and over plain http (development, tests, receivers on a trusted network). Empty: only https to public addresses.',
    ),
  WEBHOOK_TIMEOUT_MS: integer(
    { min: 100, max: 60_000, default: WEBHOOKS.timeoutMs },
    'Longest a webhook receiver may take to answer one delivery, or a test ping.',
  ),
  WEBHOOK_CONCURRENCY: integer(
    { min: 1, max: 256, default: 16 },
    'Webhook endpoints one worker sends to at once (each endpoint gets one delivery at a time).',
  ),
  WEBHOOK_POLL_MS: integer(
    { min: 10, max: 60_000, default: 1_000 },
    'How often an idle webhook worker looks for due deliveries (a commit in the same process wakes it at once).',
  ),
  WEBHOOK_BASE_DELAY_MS: integer(
    { min: 1, default: 5_000 },
    `First webhook retry delay, and first pause of a failing endpoint; both double with every failure (with jitter). Deliveries are retried for ${WEBHOOKS.retryHours} hours.`,
  ),
  WEBHOOK_MAX_DELAY_MS: integer({ min: 1, default: 60 * 60_000 }, 'Longest webhook retry delay and endpoint pause.'),
  VALUATION_POLL_MS: integer(
    { min: 10, max: 3_600_000, default: 60_000 },
    'How often a worker looks for an organization whose scheduled valuation is due ("coinventory-server valuation policy --every-hours").',
  ),
  RESERVATION_EXPIRY_INTERVAL_MS: integer(
    { min: 10, max: 60_000, default: 1_000 },
    'How often a worker gives back the units of reservations whose expiresAt has passed: a hold is released within about this long after it expires.',
  ),
  // Each entry is checked with the rest (parseAllowedOrigins, cors-origins.ts), which names a bad one.
  CORS_ALLOWED_ORIGINS: z
    .string()
    .default('')
    .describe(
      "Comma-separated origins (https://backoffice.example.com) whose pages may call the API from a browser (CORS). Empty: none. Only for a dealer's own trusted pages or a proxy: API keys are secrets and do not belong in a browser.",
    ),
  WEB_CONCURRENCY: integer(
    { min: 1, max: 64, default: 1 },
    'Server processes sharing the port (node:cluster). More than one needs DATABASE_URL.',
  ),
});

const EnvSchema = EnvShape.refine((env) => env.SYNC_LEASE_MS > env.MARKETPLACE_TIMEOUT_MS, {
  message: 'must be longer than MARKETPLACE_TIMEOUT_MS, or a slow delivery could be sent twice at once',
  path: ['SYNC_LEASE_MS'],
})
  .refine((env) => env.WEB_CONCURRENCY === 1 || env.DATABASE_URL !== undefined, {
    message:
      'must be 1 on the embedded database, whose files one process owns; set DATABASE_URL to run several workers',
    path: ['WEB_CONCURRENCY'],
  })
  .refine((env) => env.DATABASE_DIRECT_URL === undefined || env.DATABASE_URL !== undefined, {
    message:
      'needs DATABASE_URL: it is the direct way to the database DATABASE_URL reaches through a pooler, not a database of its own',
    path: ['DATABASE_DIRECT_URL'],
  })
  .refine((env) => env.DATABASE_POOLER === 'none' || env.DATABASE_URL !== undefined, {
    message: 'needs DATABASE_URL: the embedded database is reached without a pooler (set it to none, or unset it)',
    path: ['DATABASE_POOLER'],
  })
  .superRefine((env, ctx) => {
    const parsed = parseAllowedOrigins(env.CORS_ALLOWED_ORIGINS);
    if ('error' in parsed) ctx.addIssue({ code: 'custom', message: parsed.error, path: ['CORS_ALLOWED_ORIGINS'] });
  });

export type Env = z.infer<typeof EnvSchema>;

/** Settings earlier versions read, and what replaced them. */
const RETIRED_SETTINGS: Readonly<Record<string, string>> = {
  SYNC_MAX_ATTEMPTS:
    'a job failing transiently is now retried until SYNC_GIVE_UP_SECONDS (default 86400, 24 hours) has passed. Remove it, or set SYNC_GIVE_UP_SECONDS.',
};

export interface Setting {
  name: keyof Env;
  /** As it would be written in the environment; undefined when the variable has no default. */
  defaultValue: string | undefined;
  description: string;
}

/** Every variable the server reads, with its default and what it does: what `coinventory-server --help` lists. */
export function describeSettings(): Setting[] {
  return Object.entries(EnvShape.shape).map(([name, schema]) => ({
    name: name as keyof Env,
    defaultValue: schema instanceof z.ZodDefault ? String(schema._def.defaultValue()) : undefined,
    description: schema.description ?? '',
  }));
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Parses the environment, or throws a ConfigError naming every bad variable and why. */
export function loadEnv(source: NodeJS.ProcessEnv = process.env): Env {
  const values = Object.fromEntries(Object.entries(source).filter(([, value]) => value !== ''));
  const result = EnvSchema.safeParse(values);
  // A setting that no longer means anything is refused rather than ignored: its operator expects it to act.
  const retired = Object.entries(RETIRED_SETTINGS)
    .filter(([name]) => values[name] !== undefined)
    .map(([name, instead]) => `  ${name}: no longer read; ${instead}`);
  if (result.success && retired.length === 0) return result.data;
  const lines = [
    ...retired,
    ...(result.success ? [] : result.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`)),
  ];
  throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
}

/** The origins CORS_ALLOWED_ORIGINS allows (checked by loadEnv, which refuses a bad one). */
export function allowedOrigins(env: Pick<Env, 'CORS_ALLOWED_ORIGINS'>): string[] {
  const parsed = parseAllowedOrigins(env.CORS_ALLOWED_ORIGINS);
  if ('error' in parsed) throw new ConfigError(`Invalid configuration:\n  CORS_ALLOWED_ORIGINS: ${parsed.error}`);
  return parsed.origins;
}
