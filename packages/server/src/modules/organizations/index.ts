/** Organizations, their people and roles: what the settings area provisions (never reachable through the API). */
export {
  addMember,
  createOrganization,
  createUser,
  listOrganizations,
  removeMember,
  requireOrganization,
  requireUser,
  setPlan,
  setRole,
} from './provisioning.js';
export {
  deleteSandbox,
  findSandbox,
  insertSandbox,
  isSandbox,
  lockWorkspace,
  replacedSandboxes,
  SANDBOX_SOURCES,
  type SandboxRow,
  type SandboxSource,
} from './sandboxes.js';
/**
 * The row-level writes, without the operator's lookups and messages: for a caller that makes its own checks in its
 * own transaction (the demo seed, whose second run must fail on the slug and roll back).
 */
export * as organizationStore from './store.js';
export {
  type CreatedOrganization,
  findOrganization,
  findRole,
  type OrganizationRow,
  PLANS,
  type Plan,
  ROLES,
  type Role,
  type UserRow,
} from './store.js';
