// Hints for the answers whose message the API fixes whatever happened: every 401 says "Authorization not provided",
// even when a key was sent and refused; every 403 "Insufficient access", whichever scope was missing. What did happen
// is in the request (was a key sent?) and in the WWW-Authenticate challenge (RFC 6750 §3: `error`, `scope`). The hints
// name the key by its first characters only, never the whole key.

/** How many characters of a key's random part a hint shows, after its `cvk_live_`-style prefix. */
const SHOWN = 4;

/**
 * The first characters of the key in an `Authorization: Bearer …` header (`cvk_live_Ab3d…`), enough to tell keys
 * apart and too few to use; undefined when no key was sent.
 */
export function keyPrefix(authorization: string | null): string | undefined {
  const token = /^\s*Bearer\s+(\S+)/i.exec(authorization ?? '')?.[1];
  if (token === undefined) return undefined;
  const prefix = /^(?:[A-Za-z]+_){0,2}/.exec(token)?.[0] ?? '';
  // A short token would be given away by its first characters: only its length is shown.
  if (token.length - prefix.length < SHOWN * 4) return `${prefix}… (${token.length} characters)`;
  return `${token.slice(0, prefix.length + SHOWN)}…`;
}

/** The parameters of a Bearer challenge: `Bearer error="insufficient_scope", scope="write"` → `{ error, scope }`. */
export function bearerChallenge(header: string | null): Record<string, string> | undefined {
  if (header === null || !/^\s*Bearer\b/i.test(header)) return undefined;
  const params: Record<string, string> = {};
  for (const [, name, quoted, token] of header.matchAll(/([\w-]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^\s,]+))/g)) {
    if (name !== undefined) params[name.toLowerCase()] = quoted?.replace(/\\(.)/g, '$1') ?? token ?? '';
  }
  return params;
}

/** Why a 401 happened, from whether a key was sent (its prefix, or undefined) and the challenge. */
export function unauthorizedHint(sentKey: string | undefined, headers: Headers): string {
  if (sentKey === undefined) {
    return 'No API key was sent: pass `apiKey` to `new Coinventory({ apiKey })` or set the COINVENTORY_API_KEY environment variable.';
  }
  const challenge = bearerChallenge(headers.get('www-authenticate'));
  if (challenge?.error === 'invalid_request') {
    return `The API could not read the key ${sentKey} from the Authorization header: check that it is the whole key, without spaces or quotes.`;
  }
  if (challenge !== undefined && challenge.error === undefined) {
    return `The key ${sentKey} was sent but did not reach the API: something in between (a proxy) may drop the Authorization header.`;
  }
  return `The API refused the key ${sentKey}: check that it is the whole key, and that it has not expired or been revoked.`;
}

/** Why a 403 happened: the scope the challenge names, or the key's loss of access. Undefined without a challenge. */
export function forbiddenHint(sentKey: string | undefined, headers: Headers): string | undefined {
  const challenge = bearerChallenge(headers.get('www-authenticate'));
  const key = sentKey ? `the key ${sentKey}` : 'the key';
  if (challenge?.scope) {
    return `This request needs the ${JSON.stringify(challenge.scope)} scope, which ${key} lacks: use a key that has it (GET /me lists a key's scopes).`;
  }
  if (challenge?.error === 'insufficient_scope') {
    return `${capitalized(key)} is valid but may no longer call the API: the organization's plan no longer includes it, or whoever created the key is no longer an owner or admin.`;
  }
  return challenge?.error_description;
}

/**
 * When to try a 429 again: after its `Retry-After` (in seconds), when it has one. `keyLimit`: the answer carries the
 * key's `RateLimit` header, so it is the key's limit (not, say, too many failed authentications from one address).
 */
export function rateLimitHint(retryAfter: number | undefined, keyLimit: boolean): string {
  const when = retryAfter === undefined ? 'Wait a few seconds, then retry' : `Retry after ${retryAfter} s`;
  const limit = keyLimit ? ': the rate limit counts every request made with this key, by every process using it' : '';
  return `${when}${limit}.`;
}

const capitalized = (text: string) => `${text.charAt(0).toUpperCase()}${text.slice(1)}`;
