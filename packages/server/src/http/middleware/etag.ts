import type { NextFunction, Request, Response } from 'express';
import { JsonText } from '../../db/json-text.js';
import { etagOf, noneMatchHits } from '../../request/etag.js';

const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * Bodies of this many UTF-16 units or more leave as a Buffer, written after the headers; shorter ones as the string,
 * in one write with the headers. Node puts the headers in front of a string body, and for a large body that copy and
 * its encoding cost more than a second write: a 140 KB page of GET /changes took 7.4 ms of server CPU a request as a
 * string, 5.7 ms as a Buffer (paired runs).
 */
const LARGE_BODY = 16 * 1024;

/**
 * Every 200 of the API carries a strong ETag of its body; a GET whose If-None-Match names it is answered 304 with no
 * body. The answer is still worked out (and the request counted by the rate limit): the ETag is of what would be
 * sent, so it changes exactly when the answer does.
 */
export function entityTags(req: Request, res: Response, next: NextFunction) {
  const json = res.json.bind(res);
  res.json = (body: unknown) => {
    if (res.statusCode !== 200) return json(body instanceof JsonText ? body.parse() : body);
    // What res.json would send, serialised once (a large body also encoded once, see LARGE_BODY), or the text
    // PostgreSQL wrote for it (db/json-text.ts): the ETag is of these bytes.
    const text = body instanceof JsonText ? body.text : JSON.stringify(body);
    const bytes = text.length < LARGE_BODY ? text : Buffer.from(text);
    const etag = etagOf(bytes);
    res.setHeader('ETag', etag);
    if ((req.method === 'GET' || req.method === 'HEAD') && noneMatchHits(req.get('if-none-match'), etag)) {
      return res.status(304).end();
    }
    const type = res.getHeader('Content-Type');
    if (type !== undefined && type !== JSON_TYPE) return res.send(text);
    // What res.send would do with this text, without its content-type parsing and second freshness check
    // (If-None-Match was answered above), and without its buffer copy of a small body.
    res.setHeader('Content-Type', JSON_TYPE);
    res.setHeader('Content-Length', typeof bytes === 'string' ? Buffer.byteLength(bytes) : bytes.length);
    if (req.method === 'HEAD') res.end();
    else res.end(bytes);
    return res;
  };
  next();
}
