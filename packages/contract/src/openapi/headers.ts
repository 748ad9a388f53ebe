import type { AppRoute } from '@ts-rest/core';
import { CONDITIONAL, IDEMPOTENCY } from '../constants.js';
import type { HeaderObject, ParameterObject } from './types.js';

/**
 * The optional request headers of safe retries and conditional requests, and the response headers that answer
 * them. Which operation takes which follows from its method and its declared statuses, so a new route gets them
 * without being listed here.
 */

const isWrite = (route: AppRoute) => route.method !== 'GET';
const declares = (route: AppRoute, status: number) => String(status) in route.responses;

export const ETAG_EXAMPLE = '"kq3Gd0n1vQ2cX5wYb7Ue9A"';

const IDEMPOTENCY_KEY_PARAMETER: ParameterObject = {
  name: IDEMPOTENCY.header,
  in: 'header',
  required: false,
  description: `Makes the write safe to retry. The first request with this key is done once and its answer kept for ${IDEMPOTENCY.retentionHours} hours; a retry with the same key and the same method, path and body gets that answer again, with \`${IDEMPOTENCY.replayedHeader}: true\`, and changes nothing. The same key with a different request is refused with 400; a retry while the first is still running, with 409. Keys belong to the API key that sent them: ${IDEMPOTENCY.key.min} to ${IDEMPOTENCY.key.max} printable ASCII characters, for example a UUID generated for each write. Answers with a 5xx status are not kept: nothing was done, and a retry runs the write.`,
  schema: {
    type: 'string',
    minLength: IDEMPOTENCY.key.min,
    maxLength: IDEMPOTENCY.key.max,
    pattern: IDEMPOTENCY.keyPattern.source,
  },
  example: '6f1c2a52-6b0e-4c3e-9d53-6f3d8e2b1a47',
};

const IF_NONE_MATCH_PARAMETER: ParameterObject = {
  name: CONDITIONAL.ifNoneMatchHeader,
  in: 'header',
  required: false,
  description: `One or more ETags from earlier answers (or \`*\`). When the answer would have one of them, it is 304 with no body. The request still counts against the rate limit.`,
  schema: { type: 'string' },
  example: ETAG_EXAMPLE,
};

const IF_MATCH_PARAMETER: ParameterObject = {
  name: CONDITIONAL.ifMatchHeader,
  in: 'header',
  required: false,
  description: `One or more ETags (or \`*\`) from \`GET\` of this object: the write is done only if the object still has one of them, and is otherwise refused with 412, writing nothing. Compared strongly: a weak \`W/\` tag never matches.`,
  schema: { type: 'string' },
  example: ETAG_EXAMPLE,
};

// On a write, RFC 9110 §13.1.2 has a failed If-None-Match answer 412, not 304.
const IF_NONE_MATCH_WRITE_PARAMETER: ParameterObject = {
  name: CONDITIONAL.ifNoneMatchHeader,
  in: 'header',
  required: false,
  description: `One or more ETags (or \`*\`): the write is done only if the object has none of them now (for \`*\`: never, since it exists), and is otherwise refused with 412, writing nothing. Compared weakly: \`W/"x"\` names \`"x"\`. Evaluated after \`${CONDITIONAL.ifMatchHeader}\` (RFC 9110 §13.2.2).`,
  schema: { type: 'string' },
  example: ETAG_EXAMPLE,
};

/** The optional request headers an operation takes beyond `X-Request-Id`. */
export function requestHeaderParameters(route: AppRoute): ParameterObject[] {
  if (!isWrite(route)) return [IF_NONE_MATCH_PARAMETER];
  return declares(route, 412)
    ? [IDEMPOTENCY_KEY_PARAMETER, IF_MATCH_PARAMETER, IF_NONE_MATCH_WRITE_PARAMETER]
    : [IDEMPOTENCY_KEY_PARAMETER];
}

export const ETAG_HEADER: HeaderObject = {
  description:
    "A strong ETag of this answer's body: send it back in `If-None-Match` to be told 304 when nothing changed, or, for an object, in `If-Match` to write it only if nobody else has since.",
  required: true,
  schema: { type: 'string' },
  example: ETAG_EXAMPLE,
};

const REPLAYED_HEADER: HeaderObject = {
  description: `\`true\` when this is the kept answer of an earlier request with the same \`${IDEMPOTENCY.header}\`, sent again: the write was not done a second time.`,
  required: false,
  schema: { type: 'string', enum: ['true'] },
  example: 'true',
};

/** The response headers of an operation's 200 beyond the ones every response carries. */
export function successHeaders(route: AppRoute): Record<string, HeaderObject> {
  return isWrite(route)
    ? { [CONDITIONAL.etagHeader]: ETAG_HEADER, [IDEMPOTENCY.replayedHeader]: REPLAYED_HEADER }
    : { [CONDITIONAL.etagHeader]: ETAG_HEADER };
}
