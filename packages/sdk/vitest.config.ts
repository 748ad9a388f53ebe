import { readFileSync } from 'node:fs';
import { vitestConfig, yieldToServerSuiteInCi } from '@coinventory/vitest-config';

const { version } = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string };

// The integration suite starts the real server; the package suite packs, installs and type-checks the built
// package: the shared timeouts cover both. The source is tested with the version the build puts in (tsup.config.ts).
yieldToServerSuiteInCi();

export default vitestConfig({ define: { __COINVENTORY_SDK_VERSION__: JSON.stringify(version) } });
