import { TEST_MODE } from '@coinventory/contract';
import type { NextFunction, Request, Response } from 'express';

const TEST_CREDENTIALS = new RegExp(`^bearer +${TEST_MODE.keyPrefixes.test}`, 'i');

/**
 * Marks every answer to a request made with a test key, from its prefix alone, before anything else can answer: the
 * refusals (401, 429, 405, 404) say which mode the caller was in too. Live answers carry no mark.
 */
export function markTestMode(req: Request, res: Response, next: NextFunction): void {
  const authorization = req.headers.authorization;
  if (authorization !== undefined && TEST_CREDENTIALS.test(authorization)) {
    res.setHeader(TEST_MODE.header, TEST_MODE.value);
  }
  next();
}
