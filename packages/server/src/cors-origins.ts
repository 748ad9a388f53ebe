// CORS_ALLOWED_ORIGINS: the origins a browser page may call the API from, checked as the setting is read.

/**
 * The origins CORS_ALLOWED_ORIGINS lists, or why one cannot be: each entry must be an origin exactly as a browser
 * sends it in `Origin` (`https://shop.example.com`, `http://localhost:5173`), or it would never match.
 */
export function parseAllowedOrigins(text: string): { origins: string[] } | { error: string } {
  const origins: string[] = [];
  for (const entry of text
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '')) {
    if (entry === '*' || entry === 'null') {
      return {
        error: `"${entry}" is not allowed: list each origin that may call the API (https://shop.example.com); the API's keys are secrets, so no page may use them from just anywhere`,
      };
    }
    let url: URL | undefined;
    try {
      url = new URL(entry);
    } catch {
      url = undefined;
    }
    if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:') || url.host === '') {
      return {
        error: `"${entry}" is not an origin: write it as scheme://host[:port], such as https://shop.example.com`,
      };
    }
    if (url.origin !== entry) {
      return {
        error: `"${entry}" is not an origin as a browser sends it: write ${url.origin} (scheme://host[:port], lower case, no path, no default port, no trailing slash)`,
      };
    }
    origins.push(entry);
  }
  return { origins };
}
