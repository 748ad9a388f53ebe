import type { ErrorIssue } from '@coinventory/contract';
import { API_VERSION } from '@coinventory/contract/constants';
import { ROUTES } from '@coinventory/contract/routes';

// What an API error's message adds to the API's fixed one, read from the answer and from the request it answers:
// the first issues of a 400, the object a 404 did not find, and a hint when the base URL looks wrong. The API's
// messages stay fixed (clients match on them); this text is for people reading a log or a terminal.

/** The request an API error answers. */
export interface FailedRequest {
  /** The HTTP method, e.g. `GET`. */
  readonly method: string;
  /** The URL as sent, query included. */
  readonly url: string;
  /** The client's base URL, which `url` extends. */
  readonly baseUrl: string;
  /**
   * The first characters of the API key sent (`cvk_live_Ab3d…`), never the whole key; undefined when no key was
   * sent.
   */
  readonly keyPrefix?: string | undefined;
}

/** The API object a request named by its path: `{ type: 'item', id }` for `/items/{id}` and `/items/{id}/valuations`. */
export interface AddressedResource {
  /** The kind of object, in words: `item`, `webhook endpoint`. */
  readonly type: string;
  /** Its id, as the request's path gave it. */
  readonly id: string;
}

/** Issues quoted in a message; the rest are counted (all of them are in `issues`). */
const ISSUES_QUOTED = 3;

const routes = Object.values(ROUTES);

/**
 * The contract's path templates split into segments, those without parameters first so that `/items/batch` is read
 * as itself rather than as `/items/{id}`.
 */
const templates: ReadonlyArray<readonly string[]> = [...new Set(routes.map((route) => route.path))]
  .map((path) => path.split('/'))
  .sort((a, b) => a.filter(isParameter).length - b.filter(isParameter).length);

function isParameter(segment: string): boolean {
  return segment.startsWith(':');
}

/** Where a request went: its path's segments under the base URL, and the contract's template they match if any. */
interface Location {
  segments: string[];
  template: readonly string[] | undefined;
}

/** Undefined when the request's URL is not under the base URL (or either is not a URL). */
function locate(request: FailedRequest): Location | undefined {
  try {
    const base = new URL(request.baseUrl).pathname.replace(/\/+$/, '');
    const { pathname } = new URL(request.url);
    if (!pathname.startsWith(`${base}/`)) return undefined;
    const segments = pathname.slice(base.length).split('/');
    const template = templates.find(
      (parts) =>
        parts.length === segments.length &&
        parts.every((part, i) => (isParameter(part) ? segments[i] !== '' : part === segments[i])),
    );
    return { segments, template };
  } catch {
    return undefined;
  }
}

/**
 * The object a request names by id, read from the contract: the path up to its first parameter is the route that
 * reads that object (`/webhook-endpoints/:id` is `getWebhookEndpoint`), whose operation names its kind.
 */
export function addressedResource(request: FailedRequest): AddressedResource | undefined {
  const location = locate(request);
  const at = location?.template?.findIndex(isParameter) ?? -1;
  if (location?.template === undefined || at < 0) return undefined;
  const readPath = location.template.slice(0, at + 1).join('/');
  const read = routes.find((route) => route.method === 'GET' && route.path === readPath);
  if (read === undefined) return undefined;
  const type = read.operationId
    .replace(/^get/, '')
    .replace(/\B(?=[A-Z])/g, ' ')
    .toLowerCase();
  let id = location.segments[at] ?? '';
  try {
    id = decodeURIComponent(id);
  } catch {
    // Not percent-encoding the SDK wrote: shown as sent.
  }
  return { type, id };
}

/**
 * What to check when a 404 looks like a setup mistake rather than a missing object: a base URL without the version
 * (the most common first-hour mistake: the server answers 404 to everything outside `/v1`), a path that is no route
 * of the API, or a server that does not answer like the API.
 */
export function notFoundHint(request: FailedRequest, code: string | undefined): string | undefined {
  const baseUrl = request.baseUrl.replace(/\/+$/, '');
  let basePath: string;
  try {
    basePath = new URL(baseUrl).pathname;
  } catch {
    return undefined;
  }
  if (!basePath.endsWith(`/${API_VERSION}`)) {
    return `The base URL ${baseUrl} does not end in /${API_VERSION}; did you mean ${baseUrl}/${API_VERSION}?`;
  }
  const location = locate(request);
  if (location?.template === undefined) {
    const path = location ? location.segments.join('/') : request.url;
    return `${request.method} ${path} is not an API route this SDK knows; see ${baseUrl}/openapi.json.`;
  }
  // A Coinventory API answers 404 only for an unknown id, and always with its own error body.
  if (code === undefined || !location.template.some(isParameter)) {
    return `Check the base URL: ${baseUrl} does not answer like a Coinventory API.`;
  }
  return undefined;
}

/**
 * What an API error says beyond its hint: the API's message, then the issues it quoted, or what a 404 did not find
 * (`missing`) and the request it answered (`notFound`).
 */
export function failureSummary(
  apiMessage: string,
  issues: readonly ErrorIssue[] | undefined,
  missing: string | undefined,
  notFound: FailedRequest | undefined,
): string {
  if (issues !== undefined && issues.length > 0) {
    const quoted = issues.slice(0, ISSUES_QUOTED).map((issue) => issue.message);
    const more = issues.length > ISSUES_QUOTED ? ` (and ${issues.length - ISSUES_QUOTED} more)` : '';
    return `${apiMessage}: ${quoted.join('; ')}${more}`;
  }
  const what = missing ? `${apiMessage}: ${missing}` : apiMessage;
  if (notFound === undefined) return what;
  // The URL's path alone: the origin is the base URL's, and a query says nothing about what was not found.
  const path = notFound.url.replace(/^[a-z][\w+.-]*:\/\/[^/]*|[?#].*$/gi, '');
  return `${what} (${notFound.method} ${path})`;
}

/** A message followed by a hint, as sentences. */
export function withHint(message: string, hint: string | undefined): string {
  if (hint === undefined) return message;
  return `${message}${/[.!?]$/.test(message) ? '' : '.'} ${hint}`;
}
