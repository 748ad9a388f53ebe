import { type Contract, IDEMPOTENCY } from '@coinventory/contract';
import type { TsRestRequest } from '@ts-rest/express';
import type { NextFunction, Response } from 'express';
import { ApiError, badRequest } from '../../errors.js';
import { etagOf } from '../../request/etag.js';
import { requestStateOf } from '../../request/state.js';
import { sha256 } from '../../sha256.js';
import { findAnswer, type KeyScope, keepAnswer, lockKey } from './store.js';

/** A request on a contract route, as the routes' global middleware sees it. */
type ContractRequest = TsRestRequest<Contract>;

const WRITE_METHODS: ReadonlySet<string> = new Set(['POST', 'PATCH', 'DELETE']);
const HEADER = `headers.${IDEMPOTENCY.header.toLowerCase()}`;

const inUse = () => new ApiError('IDEMPOTENCY_KEY_IN_USE', undefined, { 'Retry-After': '1' });

/** JSON with every object's keys sorted: two bodies that mean the same request have the same text. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, entry]) => `${JSON.stringify(key)}:${canonicalJson(entry)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * What makes two requests "the same request": method, the route they reach and its decoded parameters, and body. The
 * path is taken as the router read it, not as it was spelled: `/v1/items/` and `/v1/items` (express's non-strict
 * routing), or an id with percent-encoded characters, reach the same route with the same parameters, so they are the
 * same request.
 */
function fingerprintOf(req: ContractRequest): string {
  const path = `${req.tsRestRoute.path} ${canonicalJson(req.params)}`;
  const body = req.body === undefined ? '' : canonicalJson(req.body);
  return sha256(`${req.method} ${path}\n${body}`, 'base64url');
}

/**
 * The fingerprint as the previous release made it (the path as spelled, not as routed). An answer kept by a server of
 * that release, shortly before an upgrade or beside it in a rolling deploy, still replays for its retry rather than
 * being refused as a different request. Kept answers last IDEMPOTENCY.retentionHours: this can go once no server of
 * that release has run for that long.
 */
function previousFingerprintOf(req: ContractRequest): string {
  const path = req.originalUrl.split('?')[0] ?? '';
  const body = req.body === undefined ? '' : canonicalJson(req.body);
  return sha256(`${req.method} ${path}\n${body}`, 'base64url');
}

/** Sends a kept answer again, as it was first sent, saying so. */
function replay(res: Response, status: number, body: string) {
  res.setHeader(IDEMPOTENCY.replayedHeader, 'true');
  if (status === 200) res.setHeader('ETag', etagOf(body));
  res.status(status).setHeader('Content-Type', 'application/json; charset=utf-8');
  res.send(body);
}

/**
 * Safe retries of writes (draft-ietf-httpapi-idempotency-key-header, with Stripe's behaviour): a POST, PATCH or
 * DELETE with `Idempotency-Key` runs once. Its answer (200, or a 4xx its handler gave) is kept in the same
 * transaction as its writes (the pipeline's `write`, request/pipeline.ts), so a kept answer always means committed
 * writes, and a 5xx keeps nothing: a retry runs the write. A retry with the same key and request gets the kept answer again; with another
 * request, 400; while the first still runs, 409 (here in this process, or through the key's lock in another).
 * Requests that fail before their handler (authentication, validation) keep nothing.
 */
export function idempotentWrites() {
  // Keys whose request this process is running: a duplicate is refused at once, even on the embedded database,
  // whose one connection would otherwise queue it behind the first.
  const running = new Set<string>();
  return async (req: ContractRequest, res: Response, next: NextFunction) => {
    const key = req.get(IDEMPOTENCY.header);
    if (key === undefined || !WRITE_METHODS.has(req.method)) return next();
    // Checked on a dry run too: it tries the request as the real one will be sent.
    if (!IDEMPOTENCY.keyPattern.test(key)) {
      return next(
        badRequest(
          `${HEADER}: must be ${IDEMPOTENCY.key.min} to ${IDEMPOTENCY.key.max} printable ASCII characters (for example a UUID)`,
        ),
      );
    }
    // A dry run writes nothing, and so keeps no answer either: it neither replays nor uses up the key.
    if (req.query.dryRun === 'true') return next();
    const state = requestStateOf(res);
    if (!state.caller || !state.work) throw new Error('an idempotent write reached before authentication');
    const { organization, apiKey } = state.caller;
    const scope: KeyScope = { organizationId: organization.id, apiKeyId: apiKey.id, key };
    const id = `${scope.organizationId}/${scope.apiKeyId}/${key}`;
    const fingerprint = fingerprintOf(req);
    let kept: Awaited<ReturnType<typeof findAnswer>>;
    try {
      kept = await findAnswer(state.work.sql, scope);
    } catch (error) {
      return next(error);
    }
    if (kept && kept.fingerprint !== fingerprint && kept.fingerprint !== previousFingerprintOf(req)) {
      return next(
        badRequest(
          `${HEADER}: this key was already used for a different request (another method, path or body); send a new key with each new request`,
        ),
      );
    }
    if (kept) return replay(res, kept.status, kept.body);
    // Checked after the look-up, with no wait in between: a duplicate that arrives while the first runs is refused.
    if (running.has(id)) return next(inUse());
    running.add(id);
    // Held until the write has committed or rolled back, even if the caller hangs up first (its retry must wait);
    // released at once by a request that never reaches its handler (refused by validation).
    let handled = false;
    res.on('close', () => {
      if (!handled) running.delete(id);
    });
    state.idempotency = {
      claim: async (tx) => {
        if (!(await lockKey(tx, scope))) throw inUse();
        // Answered by another process between our look and our lock: its answer is there for the next retry.
        if (await findAnswer(tx, scope)) throw inUse();
      },
      keep: (tx, status, body) => keepAnswer(tx, scope, { fingerprint, status, body }),
      hold: async (write) => {
        handled = true;
        try {
          return await write();
        } finally {
          running.delete(id);
        }
      },
    };
    next();
  };
}
