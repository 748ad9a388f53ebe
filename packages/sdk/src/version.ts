/** This package's version, sent in `User-Agent` and `X-Coinventory-Client` (a test keeps it equal to package.json's). */
export const VERSION = '1.0.0';
