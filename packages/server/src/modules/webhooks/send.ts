import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { WEBHOOKS } from '@coinventory/contract';
import { type AddressPolicy, hostOf, REFUSAL_TAIL } from './address-policy.js';

/** Resolves a host name to every address it has (dns.lookup with `all`); tests give their own. */
export type Resolver = (hostname: string) => Promise<LookupAddress[]>;

const systemResolver: Resolver = (hostname) =>
  new Promise((resolve, reject) =>
    dnsLookup(hostname, { all: true, verbatim: true }, (error, addresses) =>
      error ? reject(error) : resolve(addresses),
    ),
  );

export interface SendOptions {
  policy: AddressPolicy;
  timeoutMs: number;
  resolver?: Resolver | undefined;
}

/** What one attempt came to. A status without `error` is a 2xx: the receiver accepted it. */
export interface Attempt {
  status: number | null;
  durationMs: number;
  error: string | null;
}

/** Refused before connecting: the URL or the address it leads to is not one deliveries may use. */
export class RefusedAddress extends Error {
  override name = 'RefusedAddress';
}

/**
 * The lookup a delivery's socket connects with: every address of the name is checked against the policy, at the
 * moment of connecting, so a name that resolves somewhere else later (DNS rebinding) is judged by where it leads
 * now. The socket then connects to exactly the addresses that were checked.
 */
function guardedLookup(policy: AddressPolicy, resolver: Resolver): LookupFunction {
  return (hostname, options, callback) => {
    resolver(hostname).then(
      (addresses) => {
        const wanted = addresses.filter(({ family }) => !options.family || family === options.family);
        if (wanted.length === 0) {
          callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), '', 0);
          return;
        }
        for (const { address } of wanted) {
          const what = policy.forbidden(address);
          if (what === null) continue;
          const refusal = `${hostname} resolves to ${address}, which is ${what}; ${REFUSAL_TAIL}`;
          return callback(new RefusedAddress(refusal), '', 0);
        }
        if (options.all) (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, wanted);
        else callback(null, wanted[0]?.address ?? '', wanted[0]?.family ?? 4);
      },
      (error: unknown) => callback(error as NodeJS.ErrnoException, '', 0),
    );
  };
}

/** Why this URL cannot be delivered to under the policy, before any connection; null when it may be tried. */
export function urlRefusal(url: URL, policy: AddressPolicy): string | null {
  const host = hostOf(url);
  if (policy.trustsHost(host)) return null;
  if (url.protocol !== 'https:') return 'must be an https URL (plain http only for hosts the operator allows)';
  if (host === 'localhost' || host.endsWith('.localhost')) return `${host} is loopback; ${REFUSAL_TAIL}`;
  if (isIP(host)) return policy.refusal(host);
  return null;
}

const describe = (error: unknown): string => {
  if (error instanceof RefusedAddress) return error.message;
  const { code, message } = error as NodeJS.ErrnoException;
  if (code === 'ECONNREFUSED') return 'connection refused';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return `host not found (${code})`;
  if (code === 'ECONNRESET') return 'connection reset';
  return code ? `${message} (${code})` : message;
};

/**
 * What a refused answer is shown as: its status and the standard reason phrase, nothing else the receiver chose (not
 * its body or its size, its reason phrase or Location). An organization chooses the URL, and within a range an operator
 * allows, anything more would let any organization learn about other services' replies through the ping or `lastError`.
 */
function refusedAnswer(status: number): string {
  const phrase = http.STATUS_CODES[status];
  const redirect = status >= 300 && status < 400 ? ' (redirects are not followed)' : '';
  return `answered ${status}${phrase ? ` ${phrase}` : ''}${redirect}`;
}

/**
 * POSTs one signed body, once. Redirects are not followed (a 3xx is a failure), at most `maxResponseBytes` of the
 * answer are read (and only counted), and the whole attempt, from connecting to the answer's end, has `timeoutMs`.
 */
export function send(
  target: string,
  body: string,
  headers: Record<string, string>,
  { policy, timeoutMs, resolver = systemResolver }: SendOptions,
): Promise<Attempt> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const url = new URL(target);
  const early = urlRefusal(url, policy);
  if (early) return Promise.resolve({ status: null, durationMs: 0, error: early });
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve) => {
    let settled = false;
    const finish = (attempt: Omit<Attempt, 'durationMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...attempt, durationMs: elapsed() });
    };
    const request = client.request(url, {
      method: 'POST',
      agent: false,
      lookup: policy.trustsHost(hostOf(url)) ? undefined : guardedLookup(policy, resolver),
      headers: {
        ...headers,
        'content-type': 'application/json',
        'content-length': String(Buffer.byteLength(body)),
        'user-agent': 'Coinventory-Webhooks/1.0',
      },
    });
    const timer = setTimeout(() => {
      request.destroy();
      finish({ status: null, error: `no answer within ${timeoutMs} ms` });
    }, timeoutMs);
    request.on('error', (error) => finish({ status: null, error: describe(error) }));
    request.on('response', (response) => {
      const status = response.statusCode ?? 0;
      let read = 0;
      const done = () => {
        const accepted = status >= 200 && status < 300;
        finish({ status, error: accepted ? null : refusedAnswer(status) });
        response.destroy();
      };
      response.on('data', (chunk: Buffer) => {
        if (read >= WEBHOOKS.maxResponseBytes) return;
        read += chunk.length;
        // Enough read: what follows is not needed, and a receiver that never stops is cut off here.
        if (read >= WEBHOOKS.maxResponseBytes) done();
      });
      response.on('end', done);
      response.on('error', (error) => finish({ status, error: describe(error) }));
    });
    request.end(body);
  });
}
