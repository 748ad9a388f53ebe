import { createHash } from 'node:crypto';

/**
 * Strong ETags of answers: a hash of the JSON text sent. One function for both ends, so the ETag a GET sends is the
 * one If-Match compares with: the object's JSON as the GET would send it now.
 */
export const etagOf = (jsonText: string): string =>
  `"${createHash('sha256').update(jsonText).digest('base64url').slice(0, 27)}"`;

/** The entity tags a conditional header lists (`*` stays `*`); weak ones keep their `W/`. */
function tagsOf(header: string): string[] {
  return header.match(/(?:W\/)?"[^"]*"|\*/g) ?? [];
}

/** If-None-Match (RFC 9110 13.1.2): weak comparison, so `W/"x"` matches `"x"`; `*` matches any answer. */
export function noneMatchHits(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  return tagsOf(header).some((tag) => tag === '*' || tag.replace(/^W\//, '') === etag);
}

/** If-Match (RFC 9110 13.1.1): strong comparison, so a weak tag never matches; `*` matches any current object. */
export function matchHits(header: string, etag: string): boolean {
  return tagsOf(header).some((tag) => tag === '*' || tag === etag);
}
