import { vitestConfig, yieldToServerSuiteInCi } from '@coinventory/vitest-config';

yieldToServerSuiteInCi();

export default vitestConfig({
  test: {
    // One real server (fresh embedded database, demo organization) for every file; files that need a server with
    // other settings (a tight rate limit) start their own.
    globalSetup: ['test/support/setup.ts'],
    // Files share that server and some of them change its data: one file at a time keeps every list and snapshot
    // exact. (Each file also has its own key, so no file spends another's rate limit.)
    fileParallelism: false,
  },
});
