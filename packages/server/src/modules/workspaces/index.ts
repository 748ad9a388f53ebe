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
