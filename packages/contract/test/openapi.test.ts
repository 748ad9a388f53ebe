import { readFileSync } from 'node:fs';
import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  CALLER_REQUEST_ID_PATTERN,
  ERRORS,
  EXPORTS,
  IDEMPOTENCY,
  OPENAPI_DOCUMENT_VERSION,
  RATE_LIMIT,
} from '../src/constants.js';
import { contract } from '../src/contract.js';
import { ITEM_CSV_COLUMNS } from '../src/csv.js';
import { COMPONENT_EXAMPLES } from '../src/openapi/examples.js';
import { COMPONENTS, generateOpenApiDocument } from '../src/openapi/generate.js';
import type { JsonSchema, OperationObject, ResponseObject } from '../src/openapi/types.js';
import { contractRoutes } from '../src/routes.js';
import { ItemsExportEndSchema } from '../src/schemas/export.js';
import { ItemSchema } from '../src/schemas/item.js';

const document = generateOpenApiDocument();
const openApiPath = (path: string) => path.replace(/:(\w+)/g, '{$1}');
const operationOf = (route: (typeof contractRoutes)[number]['route']): OperationObject => {
  const op = document.paths[openApiPath(route.path)]?.[route.method.toLowerCase()];
  if (!op) throw new Error(`${route.method} ${route.path} is missing from the document`);
  return op;
};

describe('OpenAPI document', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    const validator = new Validator({ strict: false });
    const result = await validator.validate(structuredClone(document) as unknown as Record<string, unknown>);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('is the document the build wrote to dist/openapi.json', () => {
    const built = JSON.parse(readFileSync(new URL('../dist/openapi.json', import.meta.url), 'utf8'));
    expect(built).toEqual(document);
  });

  it('declares version 1.0.0, a /v1 server and the bearer scheme', () => {
    expect(document.openapi).toMatch(/^3\.1\.\d+$/);
    expect(document.info.version).toBe(OPENAPI_DOCUMENT_VERSION);
    expect(document.info.version).toBe('1.0.0');
    expect(document.servers.length).toBeGreaterThan(0);
    for (const server of document.servers) expect(server.url).toMatch(/\/v1$/);
    expect(document.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
  });

  it('refuses a server URL that does not end in /v1', () => {
    expect(() => generateOpenApiDocument({ serverUrl: 'https://api.example.com' })).toThrow(/\/v1/);
  });

  it('has exactly the operations of the contract', () => {
    const documented = Object.entries(document.paths).flatMap(([path, ops]) =>
      Object.keys(ops).map((method) => `${method.toUpperCase()} ${path}`),
    );
    const contracted = contractRoutes.map(({ route }) => `${route.method} ${openApiPath(route.path)}`);
    expect(documented.sort()).toEqual(contracted.sort());
    expect(contracted).toHaveLength(35);
  });

  it('gives every operation a unique id', () => {
    const ids = contractRoutes.map(({ route }) => operationOf(route).operationId);
    expect(new Set(ids).size).toBe(ids.length);
  });

  describe.each(contractRoutes.map((entry) => [entry.key, entry] as const))('%s', (_key, { route }) => {
    const op = operationOf(route);

    it('has a summary and a description', () => {
      expect(op.summary.length).toBeGreaterThan(3);
      expect(op.description.length).toBeGreaterThan(10);
    });

    it('states the scope it requires (read for GET, write otherwise)', () => {
      const scope = route.method === 'GET' ? 'read' : 'write';
      expect(route.metadata.scope).toBe(scope);
      expect(op.security).toEqual([{ bearerAuth: [scope] }]);
      expect(op['x-required-scope']).toBe(scope);
      expect(op.description).toContain(`\`${scope}\` scope`);
    });

    it('lists every path and query parameter of the contract, described', () => {
      const shapeKeys = (schema: unknown) => (schema instanceof z.ZodObject ? Object.keys(schema.shape) : []);
      const expected = [
        ...shapeKeys(route.pathParams).map((name) => `path:${name}`),
        ...shapeKeys(route.query).map((name) => `query:${name}`),
        'header:X-Request-Id',
        // Conditional reads on every GET (the export too); safe retries on every write, and If-Match where 412 can
        // answer.
        ...(route.method === 'GET'
          ? ['header:If-None-Match']
          : // Both preconditions where 412 can answer: RFC 9110 §13.1 has PATCH and DELETE evaluate If-None-Match too.
            [
              'header:Idempotency-Key',
              ...('412' in route.responses ? ['header:If-Match', 'header:If-None-Match'] : []),
            ]),
      ];
      expect(op.parameters.map((p) => `${p.in}:${p.name}`)).toEqual(expected);
      for (const parameter of op.parameters) {
        expect(parameter.description, parameter.name).not.toBe('');
        if (parameter.in === 'path') expect(parameter.schema).toMatchObject({ type: 'string', format: 'uuid' });
      }
    });

    it('documents every response status of the contract', () => {
      expect(Object.keys(op.responses).sort()).toEqual(Object.keys(route.responses).sort());
      for (const status of ['401', '403', '429', '500']) expect(op.responses).toHaveProperty(status);
    });

    it('has a request body exactly when the contract takes one', () => {
      const takesBody = 'body' in route && route.body instanceof z.ZodType;
      expect(op.requestBody !== undefined).toBe(takesBody);
      // Only POST and PATCH take one (a POST that acts on a resource, such as rotate-secret, may take none).
      if (takesBody) expect(['POST', 'PATCH']).toContain(route.method);
    });
  });

  it('describes every error response with the error body, and 429 with Retry-After', () => {
    const responses = document.components.responses;
    for (const response of Object.values(responses)) {
      expect(response.content?.['application/json']?.schema).toEqual({ $ref: '#/components/schemas/Error' });
    }
    const tooMany = responses.TooManyRequests as ResponseObject;
    expect(tooMany.headers?.['Retry-After']).toMatchObject({ required: true, schema: { type: 'integer' } });
    expect(tooMany.description).toContain(String(RATE_LIMIT.maxRequests));
  });

  it('describes the headers of every response: the request id and rate limit policy always, the rest by status', () => {
    const resolve = (response: ResponseObject | { $ref: string }): ResponseObject => {
      if (!('$ref' in response)) return response;
      const found = document.components.responses[response.$ref.replace('#/components/responses/', '')];
      if (!found) throw new Error(`dangling ${response.$ref}`);
      return found;
    };
    for (const { key, route } of contractRoutes) {
      for (const [status, response] of Object.entries(operationOf(route).responses)) {
        const headers = resolve(response).headers ?? {};
        const label = `${key} ${status}`;
        expect(headers['X-Request-Id']?.required, label).toBe(true);
        expect(headers['RateLimit-Policy']).toMatchObject({
          required: true,
          example: `"default";q=${RATE_LIMIT.maxRequests};w=${RATE_LIMIT.windowSeconds}`,
        });
        // Counted requests report the key's standing; a 401 never does (the key is unknown).
        if (status === '401') expect(headers.RateLimit, label).toBeUndefined();
        // Answered before or regardless of the count (a refusal, a timeout, a failure): sometimes, so not required.
        else expect(headers.RateLimit?.required, label).toBe(!['403', '408', '429', '500', '503'].includes(status));
        expect(headers['WWW-Authenticate']?.required ?? false, label).toBe(status === '401' || status === '403');
        // A 409 of a write that cannot meet a SKU conflict can only be IDEMPOTENCY_KEY_IN_USE, which always says when
        // to retry.
        const retryAfter =
          status === '429' || status === '503' || (status === '409' && route.metadata.conflict === undefined);
        expect(headers['Retry-After']?.required ?? false, label).toBe(retryAfter);
        for (const [name, header] of Object.entries(headers)) {
          expect(header.description.length, `${label} ${name}`).toBeGreaterThan(20);
          expect(header.example, `${label} ${name}`).toBeDefined();
        }
      }
    }
  });

  it('describes every field of every schema', () => {
    const undescribed: string[] = [];
    const visit = (schema: JsonSchema, at: string) => {
      const properties = schema.properties as Record<string, JsonSchema> | undefined;
      for (const [name, property] of Object.entries(properties ?? {})) {
        if (typeof property.description !== 'string' && typeof property.$ref !== 'string')
          undescribed.push(`${at}.${name}`);
        visit(property, `${at}.${name}`);
      }
      for (const key of ['items', 'additionalProperties'] as const) {
        const inner = schema[key];
        if (inner && typeof inner === 'object') visit(inner as JsonSchema, `${at}[]`);
      }
      for (const variant of (schema.anyOf as JsonSchema[] | undefined) ?? []) visit(variant, at);
    };
    for (const [name, schema] of Object.entries(document.components.schemas)) {
      if (typeof schema.description !== 'string') undescribed.push(name);
      visit(schema, name);
    }
    expect(undescribed).toEqual([]);
  });

  it('marks nullable fields with a null type and money as non-negative integers', () => {
    const item = document.components.schemas.Item as { properties: Record<string, JsonSchema> };
    expect(item.properties.description?.type).toEqual(['string', 'null']);
    expect(item.properties.valueInCents).toMatchObject({ type: 'integer', minimum: 0 });
    expect(item.properties.updatedAt?.anyOf).toContainEqual({ type: 'null' });
  });

  it('shows an example of every success body and request body, each accepted by its schema', () => {
    for (const { key, route } of contractRoutes) {
      const op = operationOf(route);
      const success = op.responses['200'] as ResponseObject;
      if (route.metadata.streamed) continue; // its own test below
      const example = success.content?.['application/json']?.example;
      expect(example, `${key}: 200 example`).toBeDefined();
      expect(() => (route.responses[200] as z.ZodTypeAny).parse(example), `${key}: 200 example`).not.toThrow();
      if ('body' in route && route.body instanceof z.ZodType) {
        const bodyExample = op.requestBody?.content['application/json']?.example;
        expect(bodyExample, `${key}: body example`).toBeDefined();
        expect(() => (route.body as z.ZodTypeAny).parse(bodyExample), `${key}: body example`).not.toThrow();
      }
    }
  });

  it('describes the export as NDJSON of Items ending in its cursor line, or CSV, with its facts in headers', () => {
    const op = operationOf(contract.items.export);
    const success = op.responses['200'] as ResponseObject;
    expect(Object.keys(success.content ?? {})).toEqual([EXPORTS.mediaTypes.ndjson, EXPORTS.mediaTypes.csv]);
    // The document says every GET has an ETag and honours If-None-Match: the export too. No trailers.
    expect(Object.keys(success.headers ?? {})).toEqual(
      expect.arrayContaining(['ETag', 'Content-Length', 'Vary', EXPORTS.headers.cursor, EXPORTS.headers.count]),
    );
    expect(success.headers).not.toHaveProperty('Trailer');
    expect(op.responses).toHaveProperty('304');
    const lines = String(success.content?.[EXPORTS.mediaTypes.ndjson]?.example).trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    expect(() => ItemSchema.parse(JSON.parse(lines[0] ?? ''))).not.toThrow();
    expect(() => ItemsExportEndSchema.parse(JSON.parse(lines[1] ?? ''))).not.toThrow();
    const csv = String(success.content?.[EXPORTS.mediaTypes.csv]?.example).split('\r\n');
    expect(csv[0]).toBe(ITEM_CSV_COLUMNS.join(','));
    expect(csv).toHaveLength(3); // header, one record, and the empty text after the last CRLF
    expect(op.description).toContain(EXPORTS.headers.cursor);
  });

  it('gives every component schema one example, which its own schema accepts', () => {
    expect(Object.keys(COMPONENT_EXAMPLES).sort()).toEqual(Object.keys(COMPONENTS).sort());
    for (const [name, schema] of Object.entries(COMPONENTS)) {
      const examples = document.components.schemas[name]?.examples as unknown[] | undefined;
      expect(examples, name).toHaveLength(1);
      const parsed = schema.safeParse(examples?.[0]);
      expect(parsed.success, `${name}: ${parsed.error?.message}`).toBe(true);
    }
  });

  it('shows an example of every parameter, valid for that operation', () => {
    for (const { key, route } of contractRoutes) {
      for (const parameter of operationOf(route).parameters) {
        expect(parameter.example, `${key}: ${parameter.name}`).toBeDefined();
        if (parameter.in === 'header') {
          const pattern =
            parameter.name === 'X-Request-Id'
              ? CALLER_REQUEST_ID_PATTERN
              : parameter.name === IDEMPOTENCY.header
                ? IDEMPOTENCY.keyPattern
                : /^"[\x21\x23-\x7E]+"$/; // an entity tag (RFC 9110)
          expect(String(parameter.example), `${key}: ${parameter.name}`).toMatch(pattern);
          continue;
        }
        const schema = (parameter.in === 'path' ? route.pathParams : route.query) as z.AnyZodObject;
        const field = schema.shape[parameter.name] as z.ZodTypeAny;
        expect(field.safeParse(String(parameter.example)).success, `${key}: ${parameter.name}`).toBe(true);
      }
    }
  });

  it('shows the exact code and message in every error example', () => {
    for (const [name, response] of Object.entries(document.components.responses)) {
      const example = response.content?.['application/json']?.example as { code: string; message: string };
      expect(ERRORS[example.code as keyof typeof ERRORS]?.message, name).toBe(example.message);
    }
  });
});
