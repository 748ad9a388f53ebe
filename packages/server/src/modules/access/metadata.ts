import { SCOPES } from '@coinventory/contract';
import type { Request } from 'express';
import type { PublicUrls } from '../../request/public-urls.js';

/** OAuth 2.0 Protected Resource Metadata (RFC 9728 §2) for the /v1 API. */
export function protectedResourceMetadata(urls: PublicUrls, req: Request) {
  return {
    resource: urls.baseUrl(req),
    scopes_supported: [...SCOPES],
    bearer_methods_supported: ['header'],
    resource_name: 'Coinventory API',
    resource_documentation: urls.documentationUrl(req),
  };
}
