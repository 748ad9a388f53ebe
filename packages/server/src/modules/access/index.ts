/** Who may call: key format, authentication, scopes, the rate limit, failed-auth throttling, challenges and /me. */
export { API_PLANS, authenticateKey, KEY_CREATOR_ROLES, readBearerKey } from './authenticate.js';
export { bearerChallenge, type ChallengeReason } from './challenge.js';
export { FailedAuthLimiter, type FailedAuthLimiterOptions } from './failed-auth-limiter.js';
export {
  generateKey,
  hashKey,
  isWellFormedKey,
  KEY_PATTERN,
  KEY_PREFIX,
  KEY_REGEX_SOURCE,
  keyHint,
  keyModeOf,
} from './key-format.js';
export { KEY_USAGE_INTERVAL_SECONDS } from './key-usage.js';
export {
  createKey,
  type IssuedKey,
  issueApiKey,
  listKeys,
  revokeKey,
  unusedKeyOrganization,
  usableKeyCounts,
} from './keys.js';
export { protectedResourceMetadata } from './metadata.js';
export { authMiddleware, type ContractRequest } from './middleware.js';
export { markTestMode } from './mode-header.js';
export { type RateDecision, type RatePolicy, rateLimitPolicyHeader } from './rate-limit.js';
export { meRoute } from './routes.js';
