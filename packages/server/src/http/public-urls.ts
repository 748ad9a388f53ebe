import { API_VERSION } from '@coinventory/contract';
import type { Request } from 'express';

/** Where RFC 9728 puts the metadata of a resource: the well-known prefix, then the resource's path. */
export const METADATA_PREFIX = '/.well-known/oauth-protected-resource';
/** The local path this server answers the metadata on (for the `/v1` resource). */
export const METADATA_PATH = `${METADATA_PREFIX}/${API_VERSION}`;

export interface PublicUrls {
  /** The API's base URL as clients reach it, ending in /v1. */
  baseUrl(req: Request): string;
  /** The protected-resource metadata URL for that base URL. */
  metadataUrl(req: Request): string;
  /** Where the API's documentation is served. */
  documentationUrl(req: Request): string;
}

/**
 * The configured public base URL (behind a proxy the request's own host and scheme are not what clients use),
 * or else the one the request came in on.
 */
export function publicUrls(configuredBaseUrl: string | undefined): PublicUrls {
  const baseUrl = (req: Request) =>
    configuredBaseUrl ?? `${req.protocol}://${req.get('host') ?? 'localhost'}/${API_VERSION}`;
  return {
    baseUrl,
    metadataUrl: (req) => {
      const base = new URL(baseUrl(req));
      return `${base.origin}${METADATA_PREFIX}${base.pathname.replace(/\/$/, '')}`;
    },
    documentationUrl: (req) => `${new URL(baseUrl(req)).origin}/docs`,
  };
}
