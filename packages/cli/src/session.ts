import { DEFAULT_BASE_URL, type KeyMode, TEST_MODE } from '@coinventory/contract/constants';
import { Coinventory, type Fetch, RETRY } from '@coinventory/sdk';
import type { Command } from 'commander';
import { checkProfileName, configPath, DEFAULT_PROFILE, looseMode, type Profile, readConfig } from './config.js';
import { MissingKeyError, UsageError } from './errors.js';
import { createIO, type IO } from './io.js';

/**
 * Retries after a 429, a 5xx or a lost connection, for writes too (the SDK sends each write with an Idempotency-Key):
 * the SDK's rule, 3 times.
 */
export const MAX_RETRIES = 3;

/** The options every command accepts (defined on the program). */
export interface GlobalOptions {
  apiKey?: string;
  profile?: string;
  baseUrl?: string;
  /** false with `--no-color`. */
  color: boolean;
}

export function globalOptions(command: Command): GlobalOptions {
  return command.optsWithGlobals<GlobalOptions>();
}

export function ioFor(command: Command): IO {
  return createIO(globalOptions(command).color);
}

export interface Session {
  client: Coinventory;
  baseUrl: string;
  profile: string;
  /** Where the key came from: `--api-key`, `COINVENTORY_API_KEY` or the profile. */
  keySource: string;
}

const nonEmpty = (value: string | undefined): string | undefined => {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
};

/** The profile named by `--profile` (default `default`) and its saved settings. */
export function selectedProfile(options: GlobalOptions): { name: string; profile: Profile | undefined } {
  const name = checkProfileName(options.profile ?? DEFAULT_PROFILE);
  return { name, profile: readConfig().profiles[name] };
}

/** Base URL: `--base-url` > COINVENTORY_BASE_URL > the profile's > the default; checked to be http(s). */
export function resolveBaseUrl(options: GlobalOptions, profile: Profile | undefined, env = process.env): string {
  const url = nonEmpty(options.baseUrl) ?? nonEmpty(env.COINVENTORY_BASE_URL) ?? profile?.baseUrl ?? DEFAULT_BASE_URL;
  return checkBaseUrl(url);
}

export function checkBaseUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new UsageError(`Invalid base URL '${url}': give an http(s) URL such as ${DEFAULT_BASE_URL}.`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new UsageError(`Invalid base URL '${url}': only http and https are supported.`);
  }
  return url.replace(/\/+$/, '');
}

/**
 * The client for a command. Key: `--api-key` > COINVENTORY_API_KEY > the profile's saved key; none is exit 3 with
 * how to log in.
 */
export function openSession(options: GlobalOptions, io: IO, observe?: ResponseObserver): Session {
  const name = checkProfileName(options.profile ?? DEFAULT_PROFILE);
  const fromFlag = nonEmpty(options.apiKey);
  const fromEnv = nonEmpty(io.env.COINVENTORY_API_KEY);
  // The config file is read only when it can matter, so a key and URL given outright work whatever its state.
  const needsProfile = !(fromFlag ?? fromEnv) || !(nonEmpty(options.baseUrl) ?? nonEmpty(io.env.COINVENTORY_BASE_URL));
  const profile = needsProfile ? readConfig().profiles[name] : undefined;
  const baseUrl = resolveBaseUrl(options, profile, io.env);
  const apiKey = fromFlag ?? fromEnv ?? profile?.apiKey;
  if (!apiKey) {
    const flag = name === DEFAULT_PROFILE ? '' : ` --profile ${name}`;
    throw new MissingKeyError(
      `No API key${name === DEFAULT_PROFILE ? '' : ` for profile '${name}'`}. Run 'coinventory login${flag}', set COINVENTORY_API_KEY, or pass --api-key.`,
    );
  }
  if (!fromFlag && !fromEnv) {
    const mode = looseMode();
    if (mode !== undefined) {
      io.notice(
        io.errStyle.yellow(
          `Warning: ${configPath()} has mode ${mode.toString(8).padStart(4, '0')}; others may read your key. Run: chmod 600 ${configPath()}`,
        ),
      );
    }
  }
  const keySource = fromFlag ? '--api-key' : fromEnv ? 'COINVENTORY_API_KEY' : `profile '${name}' (${configPath()})`;
  return { client: createClient(apiKey, baseUrl, io, observe), baseUrl, profile: name, keySource };
}

/** Told of every HTTP response the client gets, retried ones included (the import counts 429s with it). */
export type ResponseObserver = (response: Response) => void;

export function createClient(apiKey: string, baseUrl: string, io: IO, observe?: ResponseObserver): Coinventory {
  const client: Coinventory = new Coinventory({
    apiKey,
    baseUrl,
    maxRetries: MAX_RETRIES,
    // The CLI says on stderr itself what the SDK waits for (noticeRetries), in its own words.
    logLevel: 'off',
    // The client says its key's mode once it exists; fetch is first called after that.
    fetch: noticeTestMode(noticeRetries(globalThis.fetch, io, observe), io, () => client.mode),
  });
  return client;
}

/** What a command that calls the API with a test key says first, on stderr. */
export const TEST_MODE_NOTICE = `Test mode: the key (${TEST_MODE.keyPrefixes.test}…) reaches the workspace's sandbox, not its live data.`;

/**
 * Wraps fetch to say once, on stderr before the first request, that the key is a test key, as the Stripe CLI does:
 * so nobody takes the sandbox's answers for live stock. Never on stdout, so `--json` output stays the API's. Commands
 * that send no request (a usage error, `--help`) say nothing.
 */
function noticeTestMode(fetch: Fetch, io: IO, mode: () => KeyMode): Fetch {
  let told = false;
  return (url, init) => {
    if (!told && mode() === 'test') io.notice(io.errStyle.yellow(TEST_MODE_NOTICE));
    told = true;
    return fetch(url, init);
  };
}

/**
 * Whether the SDK retries this answer for this method, and how to say so: a 429 always (the rate limit); a 503
 * when the method is idempotent or the server says it did nothing (SERVICE_UNAVAILABLE: busy or shutting down).
 */
async function retriedAnswer(response: Response, method: string): Promise<string | undefined> {
  if (response.status === 429) return 'Rate limited';
  if (response.status !== 503) return undefined;
  if (RETRY.idempotentMethods.includes(method)) return 'Server busy';
  const body: unknown = await response
    .clone()
    .json()
    .catch(() => undefined);
  const code = typeof body === 'object' && body !== null && 'code' in body ? body.code : undefined;
  return typeof code === 'string' && RETRY.notAppliedCodes.includes(code) ? 'Server busy' : undefined;
}

/**
 * Wraps fetch to tell the user on stderr when the API refuses a request for now (429, or 503 while it is busy) and
 * the SDK is about to wait and retry. Requests are sequential, so consecutive refusals belong to one call; the count
 * resets on any other answer. The SDK waits `max(Retry-After, backoff)` and does not wait for a Retry-After above
 * RETRY.maxRetryAfterSeconds.
 */
export function noticeRetries(fetch: Fetch, io: IO, observe?: ResponseObserver): Fetch {
  let consecutive = 0;
  return async (url, init) => {
    const response = await fetch(url, init);
    observe?.(response);
    const reason = await retriedAnswer(response, (init?.method ?? 'GET').toUpperCase());
    if (reason === undefined) {
      consecutive = 0;
      return response;
    }
    consecutive += 1;
    const header = response.headers.get('retry-after');
    const retryAfter = header !== null && /^\d+$/.test(header.trim()) ? Number(header.trim()) : undefined;
    const willRetry =
      consecutive <= MAX_RETRIES && (retryAfter === undefined || retryAfter <= RETRY.maxRetryAfterSeconds);
    if (willRetry) {
      const backoff = Math.min(RETRY.initialDelayMs * 2 ** (consecutive - 1), RETRY.maxDelayMs) / 1000;
      const wait = Math.ceil(Math.max(retryAfter ?? 0, backoff));
      io.notice(io.errStyle.yellow(`${reason}; retrying in ${wait}s… (retry ${consecutive} of ${MAX_RETRIES})`));
    }
    return response;
  };
}
