import { isIP } from 'node:net';
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

// A DNS label (RFC 1123; `_` too, as container and service names use it), at most 63 characters.
const LABEL = /^[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?$/;
// A last label the URL standard reads as a number, so the whole name must then be an IPv4 address.
const NUMERIC_LABEL = /^(?:0x[0-9a-f]*|\d+)$/i;
// host [ ":" port ]: a bracketed IPv6 literal or a name (IPv4 addresses included), then an optional port.
const HOST_HEADER = /^(?:\[([0-9A-Fa-f:.]+)\]|([A-Za-z0-9_.-]+))(?::(\d{1,5}))?$/;

function isHostname(name: string): boolean {
  if (name.length > 253) return false;
  const labels = name.split('.');
  const last = labels[labels.length - 1] ?? '';
  if (NUMERIC_LABEL.test(last)) return isIP(name) === 4;
  return labels.every((label) => LABEL.test(label));
}

/**
 * The Host header when it is a valid `host[:port]` (a hostname, an IPv4 address or a bracketed IPv6 address, and a
 * port from 1 to 65535), lower-cased; otherwise undefined. Anything else would be copied into cacheable documents
 * and headers, or fail to parse as a URL.
 */
export function validHost(value: string | undefined): string | undefined {
  const match = value === undefined ? null : HOST_HEADER.exec(value);
  if (!match) return undefined;
  const [, ipv6, name, port] = match;
  if (port !== undefined && (Number(port) < 1 || Number(port) > 65_535)) return undefined;
  if (ipv6 !== undefined ? isIP(ipv6) !== 6 : !isHostname(name ?? '')) return undefined;
  // The URL parser's own spelling (lower case, IPv6 compressed), so every URL built from it names the same host.
  // It still refuses some names of valid characters: bad punycode (`xn--a.example`).
  let hostname: string;
  try {
    hostname = new URL(`http://${ipv6 !== undefined ? `[${ipv6}]` : name}`).hostname;
  } catch {
    return undefined;
  }
  return port === undefined ? hostname : `${hostname}:${Number(port)}`;
}

/** The address and port the request's connection reached: this server as that client can reach it. */
function ownAddress(req: Request): string {
  const { localAddress, localPort } = req.socket;
  if (!localAddress || !localPort) return 'localhost';
  // An IPv4 client of a dual-stack socket is seen as ::ffff:a.b.c.d; a link-local address carries a zone (%eth0).
  const address = localAddress.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, '').replace(/%.*$/, '');
  return isIP(address) === 6 ? `[${address}]:${localPort}` : `${address}:${localPort}`;
}

/**
 * The configured public base URL (behind a proxy the request's own host and scheme are not what clients use),
 * or else the one the request came in on: its Host header when that is a valid host, or the address the
 * connection reached. In that case the response depends on the Host header, and says so (`Vary: Host`) so that
 * no cache serves one host's URLs to another.
 */
export function publicUrls(configuredBaseUrl: string | undefined): PublicUrls {
  const baseUrl = (req: Request) => {
    if (configuredBaseUrl !== undefined) return configuredBaseUrl;
    req.res?.vary('Host');
    return `${req.protocol}://${validHost(req.get('host')) ?? ownAddress(req)}/${API_VERSION}`;
  };
  return {
    baseUrl,
    metadataUrl: (req) => {
      const base = new URL(baseUrl(req));
      return `${base.origin}${METADATA_PREFIX}${base.pathname.replace(/\/$/, '')}`;
    },
    documentationUrl: (req) => `${new URL(baseUrl(req)).origin}/docs`,
  };
}
