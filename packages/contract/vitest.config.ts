import { vitestConfig, yieldToServerSuiteInCi } from '@coinventory/vitest-config';

yieldToServerSuiteInCi();

export default vitestConfig();
