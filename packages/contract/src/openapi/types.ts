/** The parts of the OpenAPI 3.1 object model this package writes. */

export type JsonSchema = Record<string, unknown>;

export interface ParameterObject {
  name: string;
  in: 'path' | 'query' | 'header';
  required: boolean;
  description: string;
  schema: JsonSchema;
  example?: string | number;
}

export interface HeaderObject {
  description: string;
  required?: boolean;
  schema: JsonSchema;
  /** Of the type `schema` gives: an integer header's example is a number (validators check it against the schema). */
  example?: string | number;
}

export interface ResponseObject {
  description: string;
  headers?: Record<string, HeaderObject>;
  content?: Record<string, { schema: JsonSchema; example?: unknown }>;
}

export interface OperationObject {
  operationId: string;
  summary: string;
  description: string;
  tags: string[];
  security: Array<Record<string, string[]>>;
  parameters: ParameterObject[];
  requestBody?: {
    required: boolean;
    description: string;
    content: Record<string, { schema: JsonSchema; example?: unknown }>;
  };
  responses: Record<string, ResponseObject | { $ref: string }>;
  [extension: `x-${string}`]: unknown;
}

/** An operation the API calls on the receiver's side: a webhook (OpenAPI 3.1 `webhooks`). */
export interface WebhookOperationObject {
  operationId: string;
  summary: string;
  description: string;
  tags: string[];
  parameters: ParameterObject[];
  requestBody: {
    required: true;
    description: string;
    content: Record<string, { schema: JsonSchema; example?: unknown }>;
  };
  responses: Record<string, ResponseObject>;
}

export interface OpenApiDocument {
  openapi: string;
  info: {
    title: string;
    version: string;
    summary?: string;
    description?: string;
    contact?: { name?: string; url?: string; email?: string };
    license?: { name: string; identifier?: string; url?: string };
  };
  servers: Array<{ url: string; description?: string }>;
  security: Array<Record<string, string[]>>;
  tags: Array<{ name: string; description: string }>;
  paths: Record<string, Record<string, OperationObject>>;
  webhooks: Record<string, { post: WebhookOperationObject }>;
  components: {
    securitySchemes: Record<string, Record<string, unknown>>;
    schemas: Record<string, JsonSchema>;
    responses: Record<string, ResponseObject>;
  };
}
