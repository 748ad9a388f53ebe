import type { NextFunction, Request, Response } from 'express';
import { etagOf, noneMatchHits } from '../../request/etag.js';

const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * Every 200 of the API carries a strong ETag of its body; a GET whose If-None-Match names it is answered 304 with no
 * body. The answer is still worked out (and the request counted by the rate limit): the ETag is of what would be
 * sent, so it changes exactly when the answer does.
 */
export function entityTags(req: Request, res: Response, next: NextFunction) {
  const json = res.json.bind(res);
  res.json = (body: unknown) => {
    if (res.statusCode !== 200) return json(body);
    // What res.json would send, serialised once: the ETag is of these bytes.
    const text = JSON.stringify(body);
    const etag = etagOf(text);
    res.setHeader('ETag', etag);
    if ((req.method === 'GET' || req.method === 'HEAD') && noneMatchHits(req.get('if-none-match'), etag)) {
      return res.status(304).end();
    }
    const type = res.getHeader('Content-Type');
    if (type !== undefined && type !== JSON_TYPE) return res.send(text);
    // What res.send would do with this text, without its content-type parsing, buffer copy and second freshness
    // check (If-None-Match was answered above): the headers and the body leave as one write.
    res.setHeader('Content-Type', JSON_TYPE);
    res.setHeader('Content-Length', Buffer.byteLength(text));
    if (req.method === 'HEAD') res.end();
    else res.end(text);
    return res;
  };
  next();
}
