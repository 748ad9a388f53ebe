import type { Hash } from 'node:crypto';
import { CONDITIONAL } from '@coinventory/contract';
import { ApiError } from '../errors.js';
import { sha256 } from '../sha256.js';

/**
 * Strong ETags of answers: a hash of the JSON text sent (as a string, or already encoded as its UTF-8 bytes: the same
 * digest). One function for both ends, so the ETag a GET sends is the one If-Match compares with: the object's JSON
 * as the GET would send it now.
 */
export const etagOf = (jsonText: string | Buffer): string => tagOf(sha256(jsonText, 'base64url'));

/** The ETag of bytes hashed as they were written (SHA-256), for an answer too large to hold as one string. */
export const etagOfHash = (hash: Hash): string => tagOf(hash.digest('base64url'));

/** The one spelling of an ETag: the first 27 characters of the digest, quoted. */
const tagOf = (digest: string): string => `"${digest.slice(0, 27)}"`;

/** The entity tags a conditional header lists (`*` stays `*`); weak ones keep their `W/`. */
function tagsOf(header: string): string[] {
  return header.match(/(?:W\/)?"[^"]*"|\*/g) ?? [];
}

/** If-None-Match (RFC 9110 13.1.2): weak comparison, so `W/"x"` matches `"x"`; `*` matches any answer. */
export function noneMatchHits(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  return tagsOf(header).some((tag) => tag === '*' || tag.replace(/^W\//, '') === etag);
}

/** If-Match (RFC 9110 13.1.1): strong comparison, so a weak tag never matches; `*` matches any current object. */
export function matchHits(header: string, etag: string): boolean {
  return tagsOf(header).some((tag) => tag === '*' || tag === etag);
}

/** The preconditions a PATCH or DELETE may carry (RFC 9110 §13.1): the If-Match and If-None-Match headers as sent. */
export interface WriteConditions {
  ifMatch?: string | undefined;
  ifNoneMatch?: string | undefined;
}

/** A write's preconditions, read from its request. */
export const conditionsOf = (req: { get(name: string): string | undefined }): WriteConditions => ({
  ifMatch: req.get(CONDITIONAL.ifMatchHeader),
  ifNoneMatch: req.get(CONDITIONAL.ifNoneMatchHeader),
});

/**
 * Evaluates a write's preconditions against the object's current representation (what its GET would send now), in
 * RFC 9110 §13.2.2's order: If-Match first, then If-None-Match; either failing is 412 and nothing is written. The
 * one check every conditional write (items, webhook endpoints) makes. `current` loads that representation, only when
 * the request carries a precondition, with the object's row locked (by it or before it), so nobody changes it between
 * the check and the write; a missing object is its 404.
 */
export async function checkPreconditions(conditions: WriteConditions, current: () => Promise<unknown>): Promise<void> {
  const { ifMatch, ifNoneMatch } = conditions;
  if (ifMatch === undefined && ifNoneMatch === undefined) return;
  const etag = etagOf(JSON.stringify(await current()));
  if (ifMatch !== undefined && !matchHits(ifMatch, etag)) throw new ApiError('PRECONDITION_FAILED');
  if (ifNoneMatch !== undefined && noneMatchHits(ifNoneMatch, etag)) {
    throw new ApiError('PRECONDITION_FAILED', undefined, {}, CONDITIONAL.noneMatchFailedMessage);
  }
}
