import { vitestConfig } from '@coinventory/vitest-config';

export default vitestConfig();
