import type { AppRoute } from '@ts-rest/core';
import { z } from 'zod';
import { ignoreOverride, type Options, zodToJsonSchema } from 'zod-to-json-schema';
import {
  API_VERSION,
  CALLER_REQUEST_ID_PATTERN,
  CHANGE_TYPES,
  DEFAULT_BASE_URL,
  ERRORS,
  type ErrorCode,
  OPENAPI_DOCUMENT_VERSION,
  RATE_LIMIT,
  SCOPES,
  TEST_MODE,
} from '../constants.js';
import { ROUTE_TAGS } from '../contract.js';
import { textBounds } from '../primitives.js';
import { contractRoutes } from '../routes.js';
import { COMPONENTS } from '../schemas/components.js';
import { codeList } from '../schemas/fields.js';
import { COMPONENT_EXAMPLES, PARAMETER_EXAMPLES } from './examples.js';
import { streamedItemsResponse } from './export.js';
import { requestHeaderParameters, successHeaders } from './headers.js';
import { documentedCode, errorResponse, errorResponseName, notModifiedResponse, responseHeaders } from './responses.js';
import type { JsonSchema, OpenApiDocument, OperationObject, ParameterObject, ResponseObject } from './types.js';
import { webhookOperations } from './webhooks.js';

// Also published from here: the generate-openapi entry point and the tests read the components with the generator.
export { COMPONENTS };

const componentNameByDef = new Map<unknown, string>(
  Object.entries(COMPONENTS).map(([name, schema]) => [schema._def, name]),
);

/**
 * Converts one zod schema to JSON Schema (2019-09, which OpenAPI 3.1 accepts), writing a `$ref` wherever a
 * component appears and inlining everything else. `self` names the component being defined, if any.
 */
function toJsonSchema(schema: z.ZodTypeAny, self?: string): JsonSchema {
  const options: Partial<Options<'jsonSchema2019-09'>> = {
    target: 'jsonSchema2019-09',
    $refStrategy: 'none',
    // Refinements and coercions are runtime checks; the document shows the schema a caller sends.
    effectStrategy: 'input',
    pipeStrategy: 'input',
    override: (def) => {
      const name = componentNameByDef.get(def);
      if (name && name !== self) return { $ref: `#/components/schemas/${name}` };
      // text() counts characters in a refinement; publish its bounds as JSON Schema's (which also counts characters).
      const refinement = (def as { effect?: { refinement?: unknown } }).effect?.refinement;
      const bounds = typeof refinement === 'function' ? textBounds.get(refinement) : undefined;
      if (!bounds) return ignoreOverride;
      return {
        type: 'string',
        ...(bounds.min !== undefined && { minLength: bounds.min }),
        maxLength: bounds.max,
        ...(typeof def.description === 'string' && { description: def.description }),
      };
    },
  };
  const { $schema: _dialect, ...rest } = zodToJsonSchema(schema, options) as JsonSchema;
  return rest;
}

const componentSchemas = (): Record<string, JsonSchema> =>
  Object.fromEntries(
    Object.entries(COMPONENTS).map(([name, schema]) => {
      const example = (COMPONENT_EXAMPLES as Record<string, unknown>)[name];
      return [name, { ...toJsonSchema(schema, name), ...(example !== undefined && { examples: [example] }) }];
    }),
  );

/** `X-Request-Id` as a request header: the caller's own id for the request, echoed back and logged. */
const REQUEST_ID_PARAMETER: ParameterObject = {
  name: 'X-Request-Id',
  in: 'header',
  required: false,
  description: `Your own id for this request, to find it in the server's logs; echoed back in the response's \`X-Request-Id\`. A value that does not match \`${CALLER_REQUEST_ID_PATTERN.source}\` is ignored, and the server makes one up.`,
  schema: { type: 'string', pattern: CALLER_REQUEST_ID_PATTERN.source },
  example: 'order-sync-42',
};

/** The published example of a component schema (see examples.ts), as a media type's `example`. */
function exampleOf(schema: z.ZodTypeAny): { example?: unknown } {
  const name = componentNameByDef.get(schema._def);
  const example = name ? (COMPONENT_EXAMPLES as Record<string, unknown>)[name] : undefined;
  return example === undefined ? {} : { example };
}

/** `/items/:id` → `/items/{id}` */
const toOpenApiPath = (path: string) => path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

function parameters(schema: unknown, location: 'path' | 'query'): ParameterObject[] {
  if (!(schema instanceof z.ZodObject)) return [];
  // Converted whole, so each field is read as a property: optionality, wherever it sits (under a transform too),
  // becomes the parameter's `required`, and the schema shows the value itself. A field converted alone would keep its
  // optionality as `anyOf: [{ not: {} }, …]`, which generated clients type as `unknown`.
  const object = toJsonSchema(schema);
  const properties = object.properties as Record<string, JsonSchema>;
  const required = new Set((object.required as string[] | undefined) ?? []);
  return Object.entries(schema.shape as Record<string, z.ZodTypeAny>).map(([name, field]) => {
    const { description, ...valueSchema } = properties[name] ?? {};
    // The first candidate this parameter's own schema accepts (as sent: a query string or a path segment).
    const example = PARAMETER_EXAMPLES[name]?.find((candidate) => field.safeParse(String(candidate)).success);
    return {
      name,
      in: location,
      required: location === 'path' || required.has(name),
      description: String(field.description ?? description ?? ''),
      schema: valueSchema,
      ...(example !== undefined && { example }),
    };
  });
}

function operation(key: string, route: (typeof contractRoutes)[number]['route']): OperationObject {
  const { scope, operationId, tag } = route.metadata;
  const scopeText = `Requires an API key with the \`${scope}\` scope.`;
  const op: OperationObject = {
    operationId,
    summary: route.summary ?? key,
    description: `${route.description ?? ''}\n\n${scopeText}`.trim(),
    tags: [tag],
    security: [{ bearerAuth: [scope] }],
    'x-required-scope': scope,
    'x-contract-route': key,
    parameters: [
      ...parameters(route.pathParams, 'path'),
      ...parameters(route.query, 'query'),
      REQUEST_ID_PARAMETER,
      ...requestHeaderParameters(route),
    ],
    responses: {},
  };
  if ('body' in route && route.body instanceof z.ZodType) {
    op.requestBody = {
      required: true,
      description: 'JSON object; send `Content-Type: application/json`.',
      content: { 'application/json': { schema: toJsonSchema(route.body), ...exampleOf(route.body) } },
    };
  }
  for (const [status, schema] of Object.entries(route.responses as AppRoute['responses'])) {
    const code = Number(status);
    if (code === 304) {
      op.responses['304'] = notModifiedResponse();
    } else if (code === 200 && route.metadata.streamed) {
      op.responses['200'] = streamedItemsResponse(route);
    } else if (code === 200) {
      op.responses['200'] = {
        description: 'Success.',
        headers: { ...responseHeaders(200), ...successHeaders(route) },
        content: {
          'application/json': { schema: toJsonSchema(schema as z.ZodTypeAny), ...exampleOf(schema as z.ZodTypeAny) },
        },
      };
    } else {
      op.responses[status] = {
        $ref: `#/components/responses/${errorResponseName(documentedCode(code, route.metadata.conflict))}`,
      };
    }
  }
  return op;
}

/** Where the people behind the API are reached: the project's issue tracker. */
const CONTACT_URL = 'https://github.com/coinventory/coinventory/issues';

const API_DESCRIPTION = `JSON-over-HTTP API to a Coinventory workspace: inventory items, automated valuations with their comparable sales, consignments and sales invoices.

- **Base URL** ends in \`/${API_VERSION}\`; every path below is relative to it.
- **Authentication**: \`Authorization: Bearer <API key>\`. GET needs the \`read\` scope; POST, PATCH and DELETE need \`write\`.
- **Money** is integer cents (USD), in fields ending \`InCents\`. **Date-times** are ISO 8601 in UTC; input date-times must carry \`Z\` or a numeric offset. **Ids** are UUIDs.
- **Lists** take \`page\` and \`limit\` and return \`hasMore\`.
- **Nullable** fields are always present and hold \`null\` when empty.
- **Rate limit**: ${RATE_LIMIT.maxRequests} requests per ${RATE_LIMIT.windowSeconds} seconds per key; beyond it, 429 with \`Retry-After\`.
- **Errors** have the body \`{ code, message, issues? }\`.
- **Changes**: \`GET /changes\` reports every change in commit order, from a cursor: items created, updated and deleted, valuations created, consignments and invoices created and updated (\`types\` keeps only some of ${codeList(CHANGE_TYPES)}).
- **Webhooks**: endpoints (\`/webhook-endpoints\`) get each change POSTed as it commits, signed as Standard Webhooks specify; the payloads are described under \`webhooks\`.
- **Safe retries**: a POST, PATCH or DELETE sent with \`Idempotency-Key\` is done once; a retry with the same key gets the first answer again (\`Idempotent-Replayed: true\`).
- **Conditional requests**: every GET answers with a strong \`ETag\`; \`If-None-Match\` gets 304 when nothing changed. On PATCH and DELETE, \`If-Match\` and \`If-None-Match\` are evaluated as RFC 9110 §13.1 specifies (\`If-Match\` first), and 412 answers when one fails, writing nothing: \`If-Match\` keeps you from overwriting a change you have not seen.`;

export interface GenerateOptions {
  /** The server URL written into the document; must end in `/v1`. */
  serverUrl?: string;
}

/** Builds the OpenAPI 3.1 document of the whole contract. */
export function generateOpenApiDocument(options: GenerateOptions = {}): OpenApiDocument {
  const serverUrl = options.serverUrl ?? DEFAULT_BASE_URL;
  const base = `/${API_VERSION}`;
  if (!serverUrl.endsWith(base)) throw new Error(`The server URL must end in ${base}, got ${serverUrl}`);

  const paths: OpenApiDocument['paths'] = {};
  const usedErrorCodes = new Set<ErrorCode>();
  for (const { key, route } of contractRoutes) {
    const path = toOpenApiPath(route.path);
    paths[path] ??= {};
    paths[path][route.method.toLowerCase()] = operation(key, route);
    for (const status of Object.keys(route.responses).map(Number)) {
      if (status >= 400) usedErrorCodes.add(documentedCode(status, route.metadata.conflict));
    }
  }

  const responses: Record<string, ResponseObject> = {};
  const byStatus = (a: ErrorCode, b: ErrorCode) => ERRORS[a].status - ERRORS[b].status;
  for (const code of [...usedErrorCodes].sort(byStatus)) responses[errorResponseName(code)] = errorResponse(code);

  return {
    openapi: '3.1.0',
    info: {
      title: 'Coinventory API',
      version: OPENAPI_DOCUMENT_VERSION,
      contact: { name: 'Coinventory', url: CONTACT_URL },
      license: { name: 'MIT', identifier: 'MIT' },
      summary: 'Inventory, valuations, consignments and invoices for coin dealers and auction houses.',
      description: API_DESCRIPTION,
    },
    servers: [{ url: serverUrl, description: 'API base URL (version 1).' }],
    security: [{ bearerAuth: [] }],
    tags: Object.entries(ROUTE_TAGS).map(([name, description]) => ({ name, description })),
    paths,
    webhooks: webhookOperations(),
    components: {
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'Coinventory API key',
          description: `An API key created in the workspace's settings. Scopes: ${codeList(SCOPES)}; each operation names the one it needs. A live key (\`${TEST_MODE.keyPrefixes.live}…\`) reaches the workspace; a test key (\`${TEST_MODE.keyPrefixes.test}…\`) reaches its sandbox, and every answer to it carries \`${TEST_MODE.header}: ${TEST_MODE.value}\`.`,
        },
      },
      schemas: componentSchemas(),
      responses,
    },
  };
}
export type * from './types.js';
