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

/** How every refusal ends: where the exception can be made. */
export const REFUSAL_TAIL = 'webhooks are not delivered there (an operator can allow it in WEBHOOK_ALLOWED_HOSTS)';

/** Ranges no delivery may reach unless allowed: [network, prefix, what it is]. */
const FORBIDDEN: ReadonlyArray<readonly [string, number, string]> = [
  ['0.0.0.0', 8, '"this network"'],
  ['10.0.0.0', 8, 'a private network'],
  ['100.64.0.0', 10, 'a carrier-grade NAT network'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link-local (cloud metadata services live here)'],
  ['172.16.0.0', 12, 'a private network'],
  ['192.0.0.0', 24, 'IETF protocol assignments'],
  ['192.0.2.0', 24, 'documentation'],
  ['192.168.0.0', 16, 'a private network'],
  ['198.18.0.0', 15, 'benchmarking'],
  ['198.51.100.0', 24, 'documentation'],
  ['203.0.113.0', 24, 'documentation'],
  ['224.0.0.0', 4, 'multicast'],
  ['240.0.0.0', 4, 'reserved'],
  ['::', 128, 'the unspecified address'],
  ['::1', 128, 'loopback'],
  // Deprecated ways of carrying an IPv4 address in IPv6: no receiver needs them, and they could reach IPv4 inside.
  ['::', 96, 'an IPv4-compatible address'],
  ['::ffff:0:0:0', 96, 'an IPv4-translated address'],
  ['2002::', 16, 'a 6to4 address'],
  ['64:ff9b:1::', 48, 'local NAT64'],
  ['100::', 64, 'discard-only'],
  ['2001:db8::', 32, 'documentation'],
  ['fc00::', 7, 'a private (unique local) network, where some clouds put their metadata service'],
  ['fe80::', 10, 'link-local'],
  ['ff00::', 8, 'multicast'],
];

const familyOf = (address: string) => (isIPv4(address) ? 'ipv4' : 'ipv6');

/** An IPv4 address carried in IPv6 (`::ffff:127.0.0.1`, or NAT64's `64:ff9b::7f00:1`), so both are judged alike. */
function embeddedIPv4(address: string): string | null {
  const lower = address.toLowerCase();
  const dotted = /^(?:::ffff:|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (dotted?.[1]) return dotted[1];
  const hex = /^(?:::ffff:|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower);
  if (!hex?.[1] || !hex[2]) return null;
  const high = Number.parseInt(hex[1], 16);
  const low = Number.parseInt(hex[2], 16);
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
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

export function addressPolicy(allowedHosts: string): AddressPolicy {
  const allowed = parseAllowedHosts(allowedHosts);
  const ranges = new BlockList();
  for (const [network, prefix] of FORBIDDEN) ranges.addSubnet(network, prefix, familyOf(network));
  const isAllowed = (address: string) => allowed.ranges.check(address, familyOf(address));
  const why = (address: string) => {
    for (const [network, prefix, what] of FORBIDDEN) {
      const range = new BlockList();
      range.addSubnet(network, prefix, familyOf(network));
      if (range.check(address, familyOf(address))) return what;
    }
    return 'a forbidden range';
  };
  const forbidden = (address: string): string | null => {
    if (isIP(address) === 0) return 'not an IP address';
    if (isAllowed(address)) return null;
    const v4 = embeddedIPv4(address);
    const judged = v4 ?? address;
    if (v4 && isAllowed(v4)) return null;
    if (!ranges.check(judged, familyOf(judged))) return null;
    return why(judged);
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
