import { vitestConfig } from '../contract/vitest.shared.js';

// The integration suite starts the real server; the package suite packs, installs and type-checks the built
// package: the shared timeouts cover both.
export default vitestConfig();
