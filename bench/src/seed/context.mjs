/** What the seeding steps share: the workspaces they fill, the generator, the clock, and their row counts. */

export const DAY_MS = 86_400_000;

/**
 * @param {number} ms
 * @returns {string}
 */
export const iso = (ms) => new Date(ms).toISOString();

/**
 * @typedef {object} SeedOrg
 * @property {string} slug
 * @property {string} name
 * @property {number} items
 * @property {string} [id]                 set for organizations made through the operator commands
 * @property {string} [defaultWarehouseId]
 * @property {string} [defaultZoneId]
 * @property {{ consignments: number, consignors: number, invoices: number, customers: number, listings: number }} [sales]
 */

/**
 * A workspace's own rows that items and sales point at.
 * @typedef {object} Place
 * @property {string} id             the organization
 * @property {string} warehouseId
 * @property {string[]} zones        receiving, vault, showcase
 * @property {string[]} categories   in CATEGORY_NAMES order
 * @property {string[]} consignments
 */

/**
 * @typedef {object} SeedContext
 * @property {import('postgres').Sql} sql
 * @property {import('@coinventory/server/demo-data').Random} random  one stream for the whole data set, so the
 *   same organizations give the same rows (ids from randomUUID aside)
 * @property {number} now
 * @property {Record<string, number>} rows  rows written per table
 */
