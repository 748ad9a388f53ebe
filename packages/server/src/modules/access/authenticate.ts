import type { Queryable } from '../../db/types.js';
import type { Caller } from '../../request/state.js';
import { hashKey, isWellFormedKey } from './key-format.js';
import type { RateDecision, RatePolicy } from './rate-limit.js';
import { findKeyGrantAndCount, type ReadWithGrant } from './store.js';

/** Plans whose organizations may use the API. */
export const API_PLANS = ['business', 'enterprise'] as const;
/** Roles whose keys keep working: a key acts as the owner or admin who created it. */
export const KEY_CREATOR_ROLES = ['owner', 'admin'] as const;

export type Authentication =
  /** No Authorization header. */
  | { kind: 'missing' }
  /** A header that is not `Bearer <key>`, or a key that is malformed, unknown, expired or revoked. */
  | { kind: 'invalid' }
  /** A valid key whose organization lost API access or whose creator is no longer an owner or admin. */
  | { kind: 'forbidden' }
  /**
   * A permitted key, counted against its rate limit: `rate.admitted` says whether this request may proceed.
   * `resource`: what the read asked for returned (JSON, null for none), when it ran; see findKeyGrantAndCount.
   */
  | { kind: 'authenticated'; context: Caller; rate: RateDecision; resource?: unknown };

/** What a well-formed key resolves to: anything but a missing one. */
export type KeyAuthentication = Exclude<Authentication, { kind: 'missing' }>;

/** RFC 9110 §11.4: `credentials = auth-scheme [ 1*SP ( token68 / #auth-param ) ]`; Bearer's is a token68. */
const CREDENTIALS = /^([^ ]*)(?: +(.*))?$/s;
const TOKEN68 = /^[A-Za-z0-9\-._~+/]+=*$/;

/** What the Authorization header holds, read without the database. */
export type BearerKey =
  /** No Authorization header, or credentials of another scheme (Basic …): no bearer credentials at all. */
  | { kind: 'missing' }
  /** `Bearer` without a token, or with something that is not one token (spaces, characters a token68 lacks). */
  | { kind: 'malformed' }
  /** One token that cannot be a key (wrong shape, bad checksum): as invalid as an unknown key. */
  | { kind: 'invalid' }
  | { kind: 'key'; hash: Buffer };

export function readBearerKey(authorization: string | undefined): BearerKey {
  if (authorization === undefined || authorization === '') return { kind: 'missing' };
  const [, scheme = '', token] = CREDENTIALS.exec(authorization) ?? [];
  // Auth schemes are case-insensitive (RFC 9110 §11.1).
  if (scheme.toLowerCase() !== 'bearer') return { kind: 'missing' };
  if (token === undefined || !TOKEN68.test(token)) return { kind: 'malformed' };
  // A mistyped key is refused before any database work.
  if (!isWellFormedKey(token)) return { kind: 'invalid' };
  return { kind: 'key', hash: hashKey(token) };
}

/**
 * Resolves a well-formed key (by its hash) to a caller and counts the request, in one database round trip; with
 * `read`, that round trip also reads the route's resource for an admitted caller with the read's scope.
 */
export async function authenticateKey(
  sql: Queryable,
  keyHash: Buffer,
  policy: RatePolicy,
  read?: ReadWithGrant,
): Promise<KeyAuthentication> {
  const grant = await findKeyGrantAndCount(
    sql,
    keyHash,
    { apiPlans: API_PLANS, creatorRoles: KEY_CREATOR_ROLES, policy },
    read,
  );
  if (!grant?.usable) return { kind: 'invalid' };
  if (!grant.permitted || !grant.rate) return { kind: 'forbidden' };
  return {
    kind: 'authenticated',
    rate: grant.rate,
    ...(grant.resource === undefined ? {} : { resource: grant.resource }),
    context: {
      organization: grant.organization,
      mode: grant.mode,
      apiKey: {
        id: grant.keyId,
        name: grant.keyName,
        expiresAt: grant.expiresAt,
        scopes: grant.scopes,
        lastUsedAt: grant.lastUsedAt,
      },
    },
  };
}
