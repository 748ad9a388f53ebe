import type { Contract } from '@coinventory/contract';
import type { TsRestRequest } from '@ts-rest/express';
import type { NextFunction, Response } from 'express';
import type { Sql } from '../db/types.js';
import { ApiError } from '../errors.js';
import { authenticate } from '../services/auth.js';
import { localsOf } from './request-context.js';

export type ContractRequest = TsRestRequest<Contract>;

/**
 * Runs before validation on every contract route: resolves the bearer key, then checks the scope the route
 * declares in the contract. Unauthenticated callers learn nothing about the request's validity.
 */
export function authMiddleware(sql: Sql) {
  return (req: ContractRequest, res: Response, next: NextFunction) => {
    authenticate(sql, req.get('authorization'))
      .then((result) => {
        if (result.kind === 'missing' || result.kind === 'invalid') throw new ApiError('UNAUTHORIZED');
        if (result.kind === 'forbidden') throw new ApiError('FORBIDDEN');
        const needed = req.tsRestRoute.metadata.scope;
        if (!result.context.apiKey.scopes.includes(needed)) throw new ApiError('FORBIDDEN');
        localsOf(res).auth = result.context;
        next();
      })
      .catch(next);
  };
}
