import { expect } from 'vitest';

// The real server binary, from @coinventory/server's test helper (a devDependency, built first by turbo).
export {
  createKey,
  DEMO_ORGANIZATION,
  type RunningServer,
  runOperatorCommand,
  startServer,
  stopServer,
} from '@coinventory/test-server';

/** Resolves to what `call` threw; fails the test if it resolved. */
export const thrown = (call: Promise<unknown>): Promise<unknown> =>
  call.then(
    () => expect.fail('expected the call to throw'),
    (error: unknown) => error,
  );
