import { BlockList, isIP, isIPv4 } from 'node:net';

/**
 * Where webhook deliveries may go. A receiver's URL is chosen by an API caller, so without a check the server could
 * be made to POST into its own network: its loopback, the private ranges, the cloud's metadata service. Every
 * address a name resolves to is checked when the connection is made (not when the URL is saved: a name can be
 * pointed elsewhere later), and a name with any forbidden address is refused whole.
 *
 * The operator's `WEBHOOK_ALLOWED_HOSTS` names exceptions: host names (exactly), addresses and CIDR ranges. A URL
 * whose host is one of them may use plain http and any address; any name resolving into an allowed range may use
 * that address.
 */
export interface AddressPolicy {
  /** Whether a URL with this host may use plain http (and skips the address check): the operator allowed it. */
  trustsHost(host: string): boolean;
  /** What forbidden range this address is in (`loopback`), or null when a connection to it may be made. */
  forbidden(address: string): string | null;
  /** Why a connection to this address is refused, as a sentence, or null when it may be made. */
  refusal(address: string): string | null;
}

/** What the loopback ranges are called in a refusal. */
const LOOPBACK = 'loopback';

/** How every refusal ends: where the exception can be made. */
export const REFUSAL_TAIL = 'webhooks are not delivered there (an operator can allow it in WEBHOOK_ALLOWED_HOSTS)';

/**
 * Ranges no delivery may reach unless allowed: [network, prefix, what it is]. From IANA's IPv4 and IPv6
 * special-purpose address registries, plus the cloud addresses outside them; the first range that holds an address
 * names it, so a narrow range comes before a wide one that holds it.
 */
const FORBIDDEN: ReadonlyArray<readonly [string, number, string]> = [
  ['0.0.0.0', 8, '"this network"'],
  ['10.0.0.0', 8, 'a private network'],
  ['100.64.0.0', 10, 'a carrier-grade NAT network'],
  ['127.0.0.0', 8, LOOPBACK],
  ['168.63.129.16', 32, "a cloud's metadata and wire server (Azure)"],
  ['169.254.0.0', 16, 'link-local (cloud metadata services live here)'],
  ['172.16.0.0', 12, 'a private network'],
  ['192.0.0.0', 24, 'IETF protocol assignments'],
  ['192.0.2.0', 24, 'documentation'],
  ['192.31.196.0', 24, 'the AS112 DNS service'],
  ['192.52.193.0', 24, 'AMT relay anycast'],
  ['192.88.99.0', 24, 'the deprecated 6to4 relay anycast'],
  ['192.168.0.0', 16, 'a private network'],
  ['192.175.48.0', 24, 'the AS112 DNS service'],
  ['198.18.0.0', 15, 'benchmarking'],
  ['198.51.100.0', 24, 'documentation'],
  ['203.0.113.0', 24, 'documentation'],
  ['224.0.0.0', 4, 'multicast'],
  ['240.0.0.0', 4, 'reserved'],
  ['::', 128, 'the unspecified address'],
  ['::1', 128, LOOPBACK],
  // Deprecated ways of carrying an IPv4 address in IPv6: no receiver needs them, and they could reach IPv4 inside.
  ['::', 96, 'an IPv4-compatible address'],
  ['::ffff:0:0:0', 96, 'an IPv4-translated address'],
  ['2002::', 16, 'a 6to4 address'],
  // Local-use NAT64 leads wherever the local translator maps it: the address alone cannot say where.
  ['64:ff9b:1::', 48, 'local NAT64'],
  ['100::', 64, 'discard-only'],
  ['100:0:0:1::', 64, 'a dummy prefix'],
  ['2001::', 32, 'Teredo tunnelling'],
  ['2001:2::', 48, 'benchmarking'],
  ['2001:10::', 28, 'ORCHID'],
  ['2001:20::', 28, 'ORCHIDv2'],
  ['2001::', 23, 'IETF protocol assignments'],
  ['2001:db8::', 32, 'documentation'],
  ['2620:4f:8000::', 48, 'the AS112 DNS service'],
  ['3fff::', 20, 'documentation'],
  ['5f00::', 16, 'an SRv6 segment identifier (SID)'],
  ['fc00::', 7, 'a private (unique local) network, where some clouds put their metadata service'],
  ['fe80::', 10, 'link-local'],
  ['fec0::', 10, 'site-local (deprecated)'],
  ['ff00::', 8, 'multicast'],
  // Global unicast is 2000::/3 alone; the rest of the space is reserved, so whatever is assigned there later is out.
  ['::', 3, 'outside global unicast (2000::/3)'],
  ['4000::', 2, 'outside global unicast (2000::/3)'],
  ['8000::', 1, 'outside global unicast (2000::/3)'],
];

const familyOf = (address: string) => (isIPv4(address) ? 'ipv4' : 'ipv6');

/**
 * Each forbidden range as its own list, checked only against addresses of its family: a BlockList matches an IPv6
 * rule against an IPv4 address (as its mapped form), and `::/3` would then hold every IPv4 address.
 */
const FORBIDDEN_RANGES = FORBIDDEN.map(([network, prefix, what]) => {
  const range = new BlockList();
  range.addSubnet(network, prefix, familyOf(network));
  return { family: familyOf(network), range, what };
});

/** What forbidden range holds this address, or null when none does. */
function forbiddenRange(address: string): string | null {
  const family = familyOf(address);
  return FORBIDDEN_RANGES.find((entry) => entry.family === family && entry.range.check(address, family))?.what ?? null;
}

/** An IPv6 address's eight 16-bit groups, however it is written (`::`, a dotted IPv4 tail, a zone). */
function groupsOf(address: string): number[] {
  let text = address.toLowerCase().replace(/%.*$/, '');
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const parse = (part: string) => (part === '' ? [] : part.split(':').map((group) => Number.parseInt(group, 16)));
  const [head = '', tail] = text.split('::');
  if (tail === undefined) return parse(head);
  const [before, after] = [parse(head), parse(tail)];
  return [...before, ...Array<number>(8 - before.length - after.length).fill(0), ...after];
}

const dottedOf = (high: number, low: number) => [high >> 8, high & 255, low >> 8, low & 255].join('.');

/**
 * The IPv4 address an IPv6 one carries, where that is defined by the address alone: IPv4-mapped (`::ffff:a.b.c.d`),
 * NAT64's well-known prefix (`64:ff9b::/96`, which reaches exactly that IPv4 address) and 6to4 (`2002:AABB:CCDD::/48`).
 * `also` is what refuses the IPv6 form even when the IPv4 address may be reached: 6to4 is deprecated, and hosts
 * behind a 6to4 router are addressed under it.
 */
function carriedIPv4(address: string): { v4: string; also: string | null } | null {
  const g = groupsOf(address);
  const zeros = (from: number, to: number) => g.slice(from, to).every((group) => group === 0);
  if (zeros(0, 5) && g[5] === 0xffff) return { v4: dottedOf(g[6] ?? 0, g[7] ?? 0), also: null };
  if (g[0] === 0x64 && g[1] === 0xff9b && zeros(2, 6)) return { v4: dottedOf(g[6] ?? 0, g[7] ?? 0), also: null };
  if (g[0] === 0x2002) return { v4: dottedOf(g[1] ?? 0, g[2] ?? 0), also: forbiddenRange(address) };
  return null;
}

/** A URL's host as written (`[::1]` → `::1`), lower-cased. */
export const hostOf = (url: URL) =>
  url.hostname
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/\.+$/, '')
    .toLowerCase();

/** The operator's exceptions, parsed: names, and addresses and ranges. Throws with the entry that is not one. */
export function parseAllowedHosts(text: string): { names: Set<string>; ranges: BlockList; entries: string[] } {
  const names = new Set<string>();
  const ranges = new BlockList();
  const entries = text
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  for (const entry of entries) {
    const [network = '', prefixText, extra] = entry.split('/');
    if (isIP(network)) {
      const bits = isIPv4(network) ? 32 : 128;
      const prefix = prefixText === undefined ? bits : Number(prefixText);
      if (extra !== undefined || !/^\d+$/.test(prefixText ?? String(bits)) || prefix > bits) {
        throw new Error(`"${entry}" is not an address or a CIDR range (such as 10.1.0.0/16)`);
      }
      ranges.addSubnet(network, prefix, familyOf(network));
    } else if (
      prefixText === undefined &&
      // All digits and dots is a mistyped address (256.0.0.1), not a name.
      !/^[0-9.]+$/.test(network) &&
      /^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/i.test(network)
    ) {
      names.add(network.toLowerCase());
    } else {
      throw new Error(`"${entry}" is not a host name, an address or a CIDR range`);
    }
  }
  return { names, ranges, entries };
}

/** Whether a URL's host is this machine: `localhost` and its subdomains, or a loopback address however written. */
export function isLoopback(url: URL): boolean {
  const host = hostOf(url);
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  // The policy without exceptions judges an IPv4 address carried in IPv6 (`::ffff:127.0.0.1`) as that address.
  return isIP(host) !== 0 && addressPolicy('').forbidden(host) === LOOPBACK;
}

export function addressPolicy(allowedHosts: string): AddressPolicy {
  const allowed = parseAllowedHosts(allowedHosts);
  const isAllowed = (address: string) => allowed.ranges.check(address, familyOf(address));
  const forbidden = (address: string): string | null => {
    if (isIP(address) === 0) return 'not an IP address';
    if (isAllowed(address)) return null;
    if (isIPv4(address)) return forbiddenRange(address);
    // An IPv4 address carried in IPv6 is judged as that IPv4 address, whichever way it is written.
    const carried = carriedIPv4(address);
    if (!carried) return forbiddenRange(address);
    if (isAllowed(carried.v4)) return carried.also;
    return forbiddenRange(carried.v4) ?? carried.also;
  };
  return {
    trustsHost: (host) => {
      const bare = host.replace(/^\[(.*)\]$/, '$1').toLowerCase();
      return allowed.names.has(bare) || (isIP(bare) !== 0 && isAllowed(bare));
    },
    forbidden,
    refusal: (address) => {
      if (isIP(address) === 0) return `"${address}" is not an IP address`;
      const what = forbidden(address);
      return what === null ? null : `${address} is ${what}; ${REFUSAL_TAIL}`;
    },
  };
}
