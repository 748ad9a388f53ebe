// Types of render.mjs for the site's config and the tests (the generator itself runs as plain JavaScript).
import type { OpenApiDocument, OperationObject } from '@coinventory/contract/openapi';

export interface DocumentOperation extends OperationObject {
  method: string;
  path: string;
}

export function operationsByTag(
  document: OpenApiDocument,
): Array<{ tag: string; description: string; operations: DocumentOperation[] }>;
export function operationLink(operationId: string): string;
/** What an operation's request samples are made from (see samples.mjs). */
export interface OperationContext {
  /** Each operation id's contract route key: `routeKeys(contractRoutes)`. */
  routeKeys: Record<string, string>;
  /** The CLI's commands: `commandTree(help, ['coinventory'])`. */
  commands: Array<{ path: string[]; help: string }>;
}

export function routeKeys(
  contractRoutes: ReadonlyArray<{ key: string; route: { metadata: { operationId: string } } }>,
): Record<string, string>;
export function renderOperation(
  document: OpenApiDocument,
  operation: DocumentOperation,
  context: OperationContext,
): string;
/** The start of a named table's first cell as a page writes it: `` | `name` `` or, with a flag, its badge. */
export function namedCell(name: string, flag?: string): string;
export function renderApiIndex(document: OpenApiDocument): string;
export function renderSchemas(document: OpenApiDocument): string;
export function commandTree(help: (args: string[]) => string, root: string[]): Array<{ path: string[]; help: string }>;
export function subcommands(helpText: string): string[];
