import type { TestOrganization } from './organization.js';
import type { TestServer } from './server.js';

/** The SKUs of the organization's items that start with `prefix`: what the database holds, whatever clients were told. */
export async function skusIn(server: TestServer, organization: TestOrganization, prefix: string): Promise<Set<string>> {
  const rows = await server.database.sql<{ sku: string }[]>`
    SELECT sku FROM items WHERE organization_id = ${organization.organizationId} AND sku LIKE ${`${prefix}%`}
  `;
  return new Set(rows.map((row) => row.sku));
}

/** Reads `read` until two reads 300 ms apart agree: work that was given up has finished rolling back by then. */
export async function settledValue<T>(read: () => Promise<T>, timeoutMs = 15_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  let last = JSON.stringify(await read());
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 300));
    const value = await read();
    const next = JSON.stringify(value);
    if (next === last || Date.now() > until) return value;
    last = next;
  }
}
