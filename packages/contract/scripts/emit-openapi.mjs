// Writes the OpenAPI document generated from the built contract, in the forms other packages import:
// dist/openapi.json, and dist/openapi-document.{js,cjs,d.ts,d.cts} for `@coinventory/contract/openapi`.
import { writeFileSync } from 'node:fs';
import { generateOpenApiDocument } from '../dist/generate-openapi.js';

const dist = new URL('../dist/', import.meta.url);
const json = `${JSON.stringify(generateOpenApiDocument(), null, 2)}\n`;
const types = `import type { OpenApiDocument } from './generate-openapi.js';\ndeclare const openApiDocument: OpenApiDocument;\nexport default openApiDocument;\nexport { openApiDocument };\n`;

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
