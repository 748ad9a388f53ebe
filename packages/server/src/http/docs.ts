import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { API_VERSION } from '@coinventory/contract';
import openApiDocument from '@coinventory/contract/openapi';
import express, { type Request, type Response, type Router } from 'express';
import { ApiError } from '../errors.js';
import type { PublicUrls } from '../request/public-urls.js';

/** Where the machine-readable description is served, beside the API it describes. */
export const OPENAPI_PATH = `/${API_VERSION}/openapi.json`;
/** The interactive reference (Swagger UI). */
export const DOCS_PATH = '/docs';

// Swagger UI's static files: only the ones the page needs are served, from this machine, so the reference works
// offline and nothing is fetched from a CDN. The build copies them beside the bundle (dist/swagger-ui); run from
// source (tests, development), they are read from swagger-ui-dist, a devDependency.
const swaggerUiDir = swaggerUiFiles();

function swaggerUiFiles(): string {
  const bundled = fileURLToPath(new URL('./swagger-ui/', import.meta.url));
  if (existsSync(join(bundled, 'swagger-ui-bundle.js'))) return bundled;
  return dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
}
const ASSETS: Record<string, string> = {
  'swagger-ui.css': join(swaggerUiDir, 'swagger-ui.css'),
  'swagger-ui-bundle.js': join(swaggerUiDir, 'swagger-ui-bundle.js'),
  'favicon-32x32.png': join(swaggerUiDir, 'favicon-32x32.png'),
};

// The page's own script is a file (not inline) so the Content-Security-Policy can forbid inline scripts.
// validatorUrl null: Swagger UI would otherwise send the document to validator.swagger.io.
const INIT_SCRIPT = `window.addEventListener('DOMContentLoaded', function () {
  window.ui = SwaggerUIBundle({
    url: ${JSON.stringify(OPENAPI_PATH)},
    dom_id: '#reference',
    deepLinking: true,
    validatorUrl: null,
    displayOperationId: true,
    defaultModelsExpandDepth: 0,
    docExpansion: 'list',
    tryItOutEnabled: false,
    persistAuthorization: false,
  });
});
`;

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Coinventory API reference</title>
<link rel="icon" type="image/png" href="${DOCS_PATH}/assets/favicon-32x32.png">
<link rel="stylesheet" href="${DOCS_PATH}/assets/swagger-ui.css">
<style>body { margin: 0; } .topbar-note { font: 14px system-ui, sans-serif; padding: 10px 20px; background: #1f2933; color: #f5f7fa; } .topbar-note a { color: #9fd3ff; }</style>
</head>
<body>
<div class="topbar-note">Coinventory API reference. Authorize with an API key (<code>cvk_live_…</code>) to try requests against this server. The document: <a href="${OPENAPI_PATH}">${OPENAPI_PATH}</a></div>
<div id="reference"></div>
<script src="${DOCS_PATH}/assets/swagger-ui-bundle.js"></script>
<script src="${DOCS_PATH}/assets/init.js"></script>
</body>
</html>
`;

/** Same-origin everything; Swagger UI needs inline styles and data: images (its icons), nothing else. */
const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const methodNotAllowed = (_req: Request, _res: Response, next: express.NextFunction) =>
  next(new ApiError('METHOD_NOT_ALLOWED', undefined, { Allow: 'GET, HEAD' }));

/**
 * The server's front door, `/`: where the API, its OpenAPI document and its reference are, for whoever opens the
 * server's address (a person in a browser, a script finding its way). A new object; it names no organization.
 */
export interface ServerIndex {
  name: 'Coinventory API';
  /** The base URL of API version 1, as clients reach it. */
  api: string;
  openapi: string;
  docs: string;
}

/**
 * `/` (ServerIndex), the OpenAPI document at `/v1/openapi.json` (its `servers` naming this server as clients reach
 * it) and the interactive reference at `/docs`. None needs a key: they describe the API, they do not reach a
 * organization.
 */
export function docsRouter(urls: PublicUrls): Router {
  const router = express.Router({ caseSensitive: true, strict: false });

  router.get('/', (req, res) => {
    const api = urls.baseUrl(req);
    const index: ServerIndex = {
      name: 'Coinventory API',
      api,
      openapi: `${api}/openapi.json`,
      docs: urls.documentationUrl(req),
    };
    res.setHeader('Cache-Control', 'no-cache');
    res.json(index);
  });
  router.all('/', methodNotAllowed);

  router.get(OPENAPI_PATH, (req, res) => {
    res.setHeader('Cache-Control', 'public, max-age=300');
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.json({ ...openApiDocument, servers: [{ url: urls.baseUrl(req), description: 'This server (version 1).' }] });
  });
  router.all(OPENAPI_PATH, methodNotAllowed);

  router.get(DOCS_PATH, (_req, res) => {
    res.setHeader('Cache-Control', 'no-cache');
    res.setHeader('Content-Security-Policy', CONTENT_SECURITY_POLICY);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.type('html').send(PAGE);
  });
  router.all(DOCS_PATH, methodNotAllowed);

  router.get(`${DOCS_PATH}/assets/init.js`, (_req, res) => {
    res.setHeader('Cache-Control', 'no-cache');
    res.type('text/javascript').send(INIT_SCRIPT);
  });
  router.get(`${DOCS_PATH}/assets/:file`, (req, res, next) => {
    const name = req.params.file ?? '';
    const file = Object.hasOwn(ASSETS, name) ? ASSETS[name] : undefined;
    if (!file) return next(new ApiError('NOT_FOUND'));
    res.sendFile(file, { maxAge: '1d', headers: { 'X-Content-Type-Options': 'nosniff' } }, (error) => {
      if (error) next(error);
    });
  });

  return router;
}
