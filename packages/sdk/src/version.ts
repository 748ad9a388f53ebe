/** Put in from package.json's `version` by the build (tsup's `define`) and by the tests' vitest config. */
declare const __COINVENTORY_SDK_VERSION__: string;

/** This package's version, sent in `User-Agent` and `X-Coinventory-Client`. */
export const VERSION: string = __COINVENTORY_SDK_VERSION__;
