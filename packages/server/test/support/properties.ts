import {
  type ContractRoute,
  declaredStatuses,
  ERROR_CODES,
  ERRORS,
  ErrorBodySchema,
  type ErrorCode,
  ItemsExportEndSchema,
} from '@coinventory/contract';
import { afterAll, beforeAll, expect } from 'vitest';
import type { ApiResponse } from './http.js';
import { createTestOrganization, type TestOrganization } from './organization.js';
import { type SeededResources, seedResources } from './routes.js';
import { startTestServer, type TestServer } from './server.js';

/** What the property-based route suites share: their server, and what every answer must look like. */

/** Runs per property: enough to find the edges, few enough to keep the suite quick. */
export const RUNS = 40;
export const JSON_TYPE = /^application\/json(;|$)/;

/**
 * For the calling file: a server without a practical rate limit, an organization holding one of everything, and
 * another organization's resources (`foreign`) to aim at.
 */
export function propertiesServer() {
  let started:
    | { server: TestServer; organization: TestOrganization; data: SeededResources; foreign: SeededResources }
    | undefined;
  const current = () => {
    if (!started) throw new Error('the properties server starts in beforeAll');
    return started;
  };
  beforeAll(async () => {
    const server = await startTestServer({ policy: { maxRequests: 1_000_000, windowSeconds: 60 } });
    const organization = await createTestOrganization(server.database.sql);
    const data = await seedResources(server.database.sql, server.baseUrl, organization, 'PROP');
    const other = await createTestOrganization(server.database.sql);
    const foreign = await seedResources(server.database.sql, server.baseUrl, other, 'PROPX');
    started = { server, organization, data, foreign };
  });
  afterAll(() => started?.server.close());
  return {
    get server() {
      return current().server;
    },
    get organization() {
      return current().organization;
    },
    get data() {
      return current().data;
    },
    get foreign() {
      return current().foreign;
    },
    key: () => current().organization.key,
    itemCount: async () => {
      const { server, organization } = current();
      const [row] = await server.database.sql<{ count: number }[]>`
        SELECT count(*)::int AS count FROM items WHERE organization_id = ${organization.organizationId}
      `;
      return row?.count ?? -1;
    },
  };
}

export interface Parser {
  safeParse(value: unknown): { success: true } | { success: false; error: { message: string } };
}

export function isParser(value: unknown): value is Parser {
  return typeof value === 'object' && value !== null && typeof (value as Parser).safeParse === 'function';
}

export const describeExchange = (method: string, path: string, raw: string | undefined, response: ApiResponse) =>
  `${method} ${path.slice(0, 300)} ${raw === undefined ? '' : raw.slice(0, 300)} → ${response.status} ${response.text.slice(0, 500)}`;

/** The answer is declared by the route, never 500, and its body parses with the contract's schema for it. */
export function expectContractAnswer(entry: ContractRoute, response: ApiResponse, label: string) {
  expect(response.status, label).not.toBe(500);
  expect(declaredStatuses(entry.route), label).toContain(response.status);
  if (response.status === 200 && entry.route.metadata.streamed) {
    // An export: NDJSON lines of Items, then its end line (test/modules/items/export.test.ts has the rest).
    expect(response.headers.get('content-type'), label).toMatch(/^application\/x-ndjson(;|$)/);
    const end = response.text.trimEnd().split('\n').at(-1) ?? '';
    const parsed = ItemsExportEndSchema.safeParse(JSON.parse(end));
    if (!parsed.success) throw new Error(`${label}\nthe export's last line is not its end: ${parsed.error.message}`);
    return;
  }
  expect(response.headers.get('content-type'), label).toMatch(JSON_TYPE);
  if (response.status === 200) {
    const schema: unknown = entry.route.responses[200];
    if (!isParser(schema)) throw new Error(`${entry.key} has no 200 schema`);
    const parsed = schema.safeParse(response.body);
    if (!parsed.success) throw new Error(`${label}\n200 body does not match the contract: ${parsed.error.message}`);
    return;
  }
  const parsed = ErrorBodySchema.strict().safeParse(response.body);
  if (!parsed.success) throw new Error(`${label}\nerror body does not match the contract: ${parsed.error.message}`);
  const body = parsed.data;
  expect(ERROR_CODES, label).toContain(body.code);
  const code = body.code as ErrorCode;
  expect(ERRORS[code].status, label).toBe(response.status);
  expect(body.message, label).toBe(ERRORS[code].message);
  if (response.status === 400) expect(body.issues?.length ?? 0, label).toBeGreaterThan(0);
  else expect(Object.keys(body).sort(), label).toEqual(['code', 'message']);
}
