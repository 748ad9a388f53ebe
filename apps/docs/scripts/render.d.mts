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
export function renderOperation(document: OpenApiDocument, operation: DocumentOperation): string;
export function renderApiIndex(document: OpenApiDocument): string;
export function renderSchemas(document: OpenApiDocument): string;
export function commandTree(help: (args: string[]) => string, root: string[]): Array<{ path: string[]; help: string }>;
export function subcommands(helpText: string): string[];
export function renderCliReference(commands: Array<{ path: string[]; help: string }>): string;
export function operatorCommands(helpText: string): string[];
export function renderOperatorReference(help: (args: string[]) => string): string;
