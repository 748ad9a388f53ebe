import type { NextFunction, Request, Response } from 'express';
import { etagOf, noneMatchHits } from '../../request/etag.js';

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
    if (!res.get('Content-Type')) res.setHeader('Content-Type', 'application/json; charset=utf-8');
    return res.send(text);
  };
  next();
}
