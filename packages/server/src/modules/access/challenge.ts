/**
 * WWW-Authenticate challenges for 401 and 403 (RFC 6750 §3), pointing at the protected-resource metadata
 * (RFC 9728 §5.1) so a client can discover how to authenticate.
 */
export type ChallengeReason =
  /** No bearer credentials were sent (none, or another scheme's): the challenge carries no error (RFC 6750 §3.1). */
  | { kind: 'missing' }
  /** `Bearer` with no token, or with more than one or a malformed one (RFC 6750 §3.1 invalid_request). */
  | { kind: 'invalid_request' }
  | { kind: 'invalid_token' }
  | { kind: 'insufficient_scope'; scope: string }
  /** The key is valid but may not call: its organization lost API access or its creator lost their role. */
  | { kind: 'access_revoked' };

const quote = (value: string) => `"${value.replace(/["\\]/g, '\\$&')}"`;

export function bearerChallenge(reason: ChallengeReason, metadataUrl: string): string {
  const params: Array<[string, string]> = [];
  if (reason.kind === 'invalid_request') {
    params.push(
      ['error', 'invalid_request'],
      ['error_description', 'The Authorization header must be Bearer followed by one API key'],
    );
  } else if (reason.kind === 'invalid_token') {
    params.push(['error', 'invalid_token'], ['error_description', 'The API key is unknown, expired or revoked']);
  } else if (reason.kind === 'insufficient_scope') {
    params.push(
      ['error', 'insufficient_scope'],
      ['error_description', `The API key lacks the ${reason.scope} scope`],
      ['scope', reason.scope],
    );
  } else if (reason.kind === 'access_revoked') {
    params.push(
      ['error', 'insufficient_scope'],
      [
        'error_description',
        "The organization's plan does not include API access, or the key's creator is no longer an owner or admin",
      ],
    );
  }
  params.push(['resource_metadata', metadataUrl]);
  return `Bearer ${params.map(([name, value]) => `${name}=${quote(value)}`).join(', ')}`;
}
