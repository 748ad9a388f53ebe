// Writes the OpenAPI document generated from the built contract, in the forms other packages import:
// dist/openapi.json, and dist/openapi-document.{js,cjs,d.ts,d.cts} for `@coinventory/contract/openapi`.
import { writeFileSync } from 'node:fs';
import { generateOpenApiDocument } from '../dist/generate-openapi.js';

const dist = new URL('../dist/', import.meta.url);
const json = `${JSON.stringify(generateOpenApiDocument(), null, 2)}\n`;
// The object model's types come along, so a consumer can name an operation or a schema of the document.
const types = `import type { OpenApiDocument } from './generate-openapi.js';\nexport type * from './generate-openapi.js';\ndeclare const openApiDocument: OpenApiDocument;\nexport default openApiDocument;\nexport { openApiDocument };\n`;

writeFileSync(new URL('openapi.json', dist), json);
writeFileSync(
  new URL('openapi-document.js', dist),
  `const openApiDocument = ${json.trimEnd()};\nexport default openApiDocument;\nexport { openApiDocument };\n`,
);
writeFileSync(
  new URL('openapi-document.cjs', dist),
  `'use strict';\nconst openApiDocument = ${json.trimEnd()};\nmodule.exports = openApiDocument;\nmodule.exports.default = openApiDocument;\nmodule.exports.openApiDocument = openApiDocument;\n`,
);
writeFileSync(new URL('openapi-document.d.ts', dist), types);
writeFileSync(
  new URL('openapi-document.d.cts', dist),
  types.replace('./generate-openapi.js', './generate-openapi.cjs'),
);
console.log(`OpenAPI document written: dist/openapi.json (${json.length} bytes)`);

// A zod-free manifest of every route (method, path, scope), for clients that must stay small (the SDK).
const { contractRoutes } = await import('../dist/index.js');
const manifest = Object.fromEntries(
  contractRoutes.map(({ key, route }) => [
    key,
    { method: route.method, path: route.path, scope: route.metadata.scope, operationId: route.metadata.operationId },
  ]),
);
const manifestJson = JSON.stringify(manifest, null, 2);
const keys = Object.keys(manifest);
const manifestTypes = `export interface RouteInfo<M extends string = string, P extends string = string> {
  method: M;
  path: P;
  scope: 'read' | 'write';
  operationId: string;
}
declare const ROUTES: {
${keys.map((k) => `  readonly ${JSON.stringify(k)}: RouteInfo<${JSON.stringify(manifest[k].method)}, ${JSON.stringify(manifest[k].path)}>;`).join('\n')}
};
export type RouteKey = keyof typeof ROUTES;
export { ROUTES };
`;
writeFileSync(new URL('routes-manifest.js', dist), `export const ROUTES = Object.freeze(${manifestJson});\n`);
writeFileSync(
  new URL('routes-manifest.cjs', dist),
  `'use strict';\nexports.ROUTES = Object.freeze(${manifestJson});\n`,
);
writeFileSync(new URL('routes-manifest.d.ts', dist), manifestTypes);
writeFileSync(new URL('routes-manifest.d.cts', dist), manifestTypes);
console.log(`Route manifest written: dist/routes-manifest.js (${keys.length} routes)`);
