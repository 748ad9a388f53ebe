/**
 * Test mode: each workspace may have a sandbox, an organization of its own that only the workspace's test keys reach.
 *
 * `organizations.sandbox_of`: set on a sandbox, naming its live workspace. A test key reaches the workspace's newest
 * sandbox: a reset makes a new one in one transaction, and the one it replaced is deleted minutes later, once no
 * request can still be reading it (modules/sandbox/replaced.ts). A sandbox shares its workspace's name and slug, so
 * slugs are unique among live workspaces only (the index keeps the constraint's name, which the operator's conflict
 * message looks for). `sandbox_source`: what the sandbox was made from (`empty`, `demo` or `live`); its `created_at`
 * is when.
 *
 * `api_keys.mode`: `live` keys reach the workspace, `test` keys its sandbox. A key keeps belonging to the live
 * workspace (its plan and people decide whether it works), so resets leave keys alone. The idempotency keys a test
 * key sends are its sandbox's rows, so they reference the key by its id alone (unique, as every key id is).
 *
 * `sandbox_copy_id(sandbox, id)`: the id a record copied into a sandbox gets. It is a function of the sandbox and the
 * original id only, so every module's copy maps the references it holds to the same new ids without sharing a table,
 * and no id of the live workspace is an id in its sandbox. The result is shaped as a version 4 UUID.
 */
export const name = 'test_mode';

export const up = /* sql */ `
ALTER TABLE organizations
  ADD COLUMN sandbox_of uuid REFERENCES organizations (id) ON DELETE CASCADE,
  ADD COLUMN sandbox_source text CHECK (sandbox_source IN ('empty', 'demo', 'live')),
  ADD CONSTRAINT organizations_sandbox_source_check_pair CHECK ((sandbox_of IS NULL) = (sandbox_source IS NULL));
ALTER TABLE organizations DROP CONSTRAINT organizations_slug_key;
CREATE UNIQUE INDEX organizations_slug_key ON organizations (slug) WHERE sandbox_of IS NULL;
CREATE INDEX organizations_sandbox_idx ON organizations (sandbox_of, created_at DESC) WHERE sandbox_of IS NOT NULL;

ALTER TABLE api_keys ADD COLUMN mode text NOT NULL DEFAULT 'live' CHECK (mode IN ('live', 'test'));
-- A test key's idempotency keys are its sandbox's, while the key is its workspace's: they name the key alone.
CREATE UNIQUE INDEX api_keys_id_key ON api_keys (id);
ALTER TABLE idempotency_keys
  DROP CONSTRAINT idempotency_keys_organization_id_api_key_id_fkey,
  ADD CONSTRAINT idempotency_keys_api_key_id_fkey FOREIGN KEY (api_key_id) REFERENCES api_keys (id) ON DELETE CASCADE;

-- One expression without FROM, so the planner inlines it: a copy calls it for every id of every row it copies (a
-- function call per id cost a fifth of a 100,000-item copy's time). The variant digit is the hash's 17th mapped to
-- 8, 9, a or b by its value modulo 4.
CREATE FUNCTION sandbox_copy_id(p_sandbox uuid, p_id uuid) RETURNS uuid
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT overlay(
    overlay(md5(p_sandbox::text || '/' || p_id::text) PLACING '4' FROM 13)
    PLACING translate(substr(md5(p_sandbox::text || '/' || p_id::text), 17, 1), '0123456789abcdef', '89ab89ab89ab89ab')
    FROM 17
  )::uuid
$$;
`;
