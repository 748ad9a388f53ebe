import { describe, expect, it } from 'vitest';
import { addressPolicy, hostOf, parseAllowedHosts } from '../../../src/modules/webhooks/address-policy.js';
import { urlRefusal } from '../../../src/modules/webhooks/send.js';

/** The SSRF policy on its own: which addresses a delivery may connect to, and which URLs an endpoint may have. */

const REFUSED_TAIL = 'webhooks are not delivered there (an operator can allow it in WEBHOOK_ALLOWED_HOSTS)';
/** The exact refusal of an address, naming what the range is. */
const refused = (address: string, what: string) => `${address} is ${what}; ${REFUSED_TAIL}`;
const HTTPS_ONLY = 'must be an https URL (plain http only for hosts the operator allows)';

const LOOPBACK = 'loopback';
const PRIVATE = 'a private network';
const LINK_LOCAL_V4 = 'link-local (cloud metadata services live here)';
const UNIQUE_LOCAL = 'a private (unique local) network, where some clouds put their metadata service';
const AZURE = "a cloud's metadata and wire server (Azure)";
const RELAY_6TO4 = 'the deprecated 6to4 relay anycast';
const AS112 = 'the AS112 DNS service';
const OUTSIDE_GLOBAL = 'outside global unicast (2000::/3)';

describe('addressPolicy: the addresses no delivery may reach', () => {
  const policy = addressPolicy('');

  // [address, what the refusal calls it]: every forbidden range, at its edges and at well-known addresses in it.
  const forbidden: ReadonlyArray<readonly [string, string]> = [
    ['127.0.0.1', LOOPBACK],
    ['127.255.255.254', LOOPBACK],
    ['::1', LOOPBACK],
    ['10.0.0.0', PRIVATE],
    ['10.1.2.3', PRIVATE],
    ['10.255.255.255', PRIVATE],
    ['172.16.0.1', PRIVATE],
    ['172.31.255.255', PRIVATE],
    ['192.168.0.1', PRIVATE],
    ['192.168.255.255', PRIVATE],
    ['169.254.169.254', LINK_LOCAL_V4],
    ['169.254.0.1', LINK_LOCAL_V4],
    ['100.64.0.1', 'a carrier-grade NAT network'],
    ['100.127.255.255', 'a carrier-grade NAT network'],
    ['0.0.0.0', '"this network"'],
    ['0.1.2.3', '"this network"'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['255.255.255.255', 'reserved'],
    ['::', 'the unspecified address'],
    ['ff02::1', 'multicast'],
    ['ff05::1:3', 'multicast'],
    ['fc00::1', UNIQUE_LOCAL],
    ['fd00:ec2::254', UNIQUE_LOCAL],
    ['fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', UNIQUE_LOCAL],
    ['fe80::1', 'link-local'],
    ['febf:ffff::1', 'link-local'],
    // IPv4 carried in IPv6 is judged as the IPv4 address it carries.
    ['::ffff:127.0.0.1', LOOPBACK],
    ['::ffff:7f00:1', LOOPBACK],
    ['0:0:0:0:0:ffff:7f00:1', LOOPBACK],
    ['::ffff:169.254.169.254', LINK_LOCAL_V4],
    ['::ffff:a9fe:a9fe', LINK_LOCAL_V4],
    ['::ffff:10.0.0.1', PRIVATE],
    ['64:ff9b::a00:1', PRIVATE],
    ['64:ff9b::7f00:1', LOOPBACK],
    ['64:ff9b::169.254.169.254', LINK_LOCAL_V4],
    ['64:ff9b:0:0:0:0:a00:1', PRIVATE],
    ['64:FF9B::10.0.0.1', PRIVATE],
    ['::ffff:168.63.129.16', AZURE],
    ['64:ff9b::a83f:8110', AZURE],
    ['::ffff:192.88.99.1', RELAY_6TO4],
    // Local NAT64 leads wherever the local translator maps it, so it is refused whatever it carries.
    ['64:ff9b:1::a00:1', 'local NAT64'],
    ['64:ff9b:1::808:808', 'local NAT64'],
    // Deprecated IPv6 forms that carry an IPv4 address are refused outright: 6to4 is judged by the address it
    // carries first, so a forbidden one is named.
    ['::7f00:1', 'an IPv4-compatible address'],
    ['::a9fe:a9fe', 'an IPv4-compatible address'],
    ['::ffff:0:7f00:1', 'an IPv4-translated address'],
    ['2002:7f00:1::', LOOPBACK],
    ['2002:a00:1::1', PRIVATE],
    ['2002:a83f:8110::1', AZURE],
    ['2002:808:808::1', 'a 6to4 address'],
    // Found missing in issue 35, and the rest of IANA's special-purpose registries.
    ['168.63.129.16', AZURE],
    ['192.88.99.0', RELAY_6TO4],
    ['192.88.99.255', RELAY_6TO4],
    ['192.31.196.1', AS112],
    ['192.175.48.1', AS112],
    ['192.52.193.1', 'AMT relay anycast'],
    ['fec0::1', 'site-local (deprecated)'],
    ['feff:ffff::1', 'site-local (deprecated)'],
    ['2001::1', 'Teredo tunnelling'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'Teredo tunnelling'],
    ['2001:2::1', 'benchmarking'],
    ['2001:2:0:ffff::1', 'benchmarking'],
    ['2001:10::1', 'ORCHID'],
    ['2001:20::1', 'ORCHIDv2'],
    ['2001:2f:ffff::1', 'ORCHIDv2'],
    ['2001:1::1', 'IETF protocol assignments'],
    ['2001:4:112::1', 'IETF protocol assignments'],
    ['2001:1ff:ffff::1', 'IETF protocol assignments'],
    ['2620:4f:8000::1', AS112],
    ['3fff::1', 'documentation'],
    ['3fff:fff:ffff::1', 'documentation'],
    ['5f00::1', 'an SRv6 segment identifier (SID)'],
    ['100:0:0:1::1', 'a dummy prefix'],
    // Outside 2000::/3 nothing is global unicast: what is assigned there later is refused too.
    ['4000::1', OUTSIDE_GLOBAL],
    ['1000::1', OUTSIDE_GLOBAL],
    ['e000::1', OUTSIDE_GLOBAL],
    // Upper case is the same address.
    ['FE80::1', 'link-local'],
    ['::FFFF:127.0.0.1', LOOPBACK],
  ];

  it.each(forbidden)('refuses %s as %s', (address, what) => {
    expect(policy.refusal(address)).toBe(refused(address, what));
  });

  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '93.184.215.14',
    // Just outside the private and shared ranges.
    '9.255.255.255',
    '11.0.0.0',
    '172.15.255.255',
    '172.32.0.0',
    '192.167.255.255',
    '192.169.0.0',
    '100.63.255.255',
    '100.128.0.0',
    '169.253.255.255',
    '223.255.255.255',
    '2606:4700::1111',
    '2001:4860:4860::8888',
    '::ffff:8.8.8.8',
    '64:ff9b::808:808',
    // Just outside the ranges added for issue 35.
    '168.63.129.15',
    '168.63.129.17',
    '192.88.98.255',
    '192.88.100.0',
    '2001:200::1',
    '3fff:1000::1',
    '2000::1',
    '3ffe:ffff::1',
  ])('allows the public address %s', (address) => {
    expect(policy.refusal(address)).toBeNull();
  });

  it('refuses what is not an IP address at all', () => {
    expect(policy.refusal('hooks.example.com')).toBe('"hooks.example.com" is not an IP address');
    expect(policy.refusal('')).toBe('"" is not an IP address');
    expect(policy.refusal('[::1]')).toBe('"[::1]" is not an IP address');
  });

  it('trusts no host without WEBHOOK_ALLOWED_HOSTS', () => {
    for (const host of ['127.0.0.1', '::1', '[::1]', 'localhost', 'hooks.example.com', '8.8.8.8']) {
      expect(policy.trustsHost(host), host).toBe(false);
    }
  });
});

describe('WEBHOOK_ALLOWED_HOSTS', () => {
  it('parses names (lower-cased), addresses and CIDR ranges, ignoring spaces and empty entries', () => {
    const parsed = parseAllowedHosts(' Hooks.Internal , 127.0.0.1,, 10.20.0.0/16 ,fd00::/8, ::1 ,');
    expect(parsed.entries).toEqual(['Hooks.Internal', '127.0.0.1', '10.20.0.0/16', 'fd00::/8', '::1']);
    expect([...parsed.names]).toEqual(['hooks.internal']);
    expect(parsed.ranges.check('127.0.0.1', 'ipv4')).toBe(true);
    expect(parsed.ranges.check('127.0.0.2', 'ipv4')).toBe(false);
    expect(parsed.ranges.check('10.20.255.255', 'ipv4')).toBe(true);
    expect(parsed.ranges.check('10.21.0.0', 'ipv4')).toBe(false);
    expect(parsed.ranges.check('fd12:3456::1', 'ipv6')).toBe(true);
    expect(parsed.ranges.check('fe80::1', 'ipv6')).toBe(false);
    expect(parsed.ranges.check('::1', 'ipv6')).toBe(true);
  });

  it('is empty for an empty or blank setting', () => {
    for (const text of ['', ' ', ',', ' , ,']) {
      const parsed = parseAllowedHosts(text);
      expect(parsed.entries).toEqual([]);
      expect(parsed.names.size).toBe(0);
    }
  });

  it.each([
    ['10.0.0.0/33', 'is not an address or a CIDR range (such as 10.1.0.0/16)'],
    ['::1/129', 'is not an address or a CIDR range (such as 10.1.0.0/16)'],
    ['10.0.0.0/', 'is not an address or a CIDR range (such as 10.1.0.0/16)'],
    ['10.0.0.0/8/1', 'is not an address or a CIDR range (such as 10.1.0.0/16)'],
    ['10.0.0.0/-1', 'is not an address or a CIDR range (such as 10.1.0.0/16)'],
    ['10.0.0.0/x', 'is not an address or a CIDR range (such as 10.1.0.0/16)'],
    ['a b', 'is not a host name, an address or a CIDR range'],
    ['http://x', 'is not a host name, an address or a CIDR range'],
    ['hooks.example.com:8080', 'is not a host name, an address or a CIDR range'],
    ['hooks.example.com/24', 'is not a host name, an address or a CIDR range'],
    ['-hooks.example.com', 'is not a host name, an address or a CIDR range'],
    ['hooks..example.com', 'is not a host name, an address or a CIDR range'],
    ['[::1]', 'is not a host name, an address or a CIDR range'],
    // Digits and dots are a mistyped address, never a name.
    ['256.0.0.1', 'is not a host name, an address or a CIDR range'],
    ['10.0.0.300', 'is not a host name, an address or a CIDR range'],
    ['10.1', 'is not a host name, an address or a CIDR range'],
  ])('refuses %s, naming the entry', (entry, why) => {
    const message = `"${entry}" ${why}`;
    expect(() => parseAllowedHosts(entry)).toThrow(message);
    // Among valid entries, the bad one is still the one named.
    expect(() => parseAllowedHosts(`127.0.0.1, ${entry}, hooks.internal`)).toThrow(message);
    expect(() => addressPolicy(`hooks.internal,${entry}`)).toThrow(message);
  });

  it('trusts listed names exactly, whatever their case, and nothing under or around them', () => {
    const policy = addressPolicy('Hooks.Internal,receiver');
    for (const host of ['hooks.internal', 'HOOKS.INTERNAL', 'Hooks.Internal', 'receiver', 'RECEIVER']) {
      expect(policy.trustsHost(host), host).toBe(true);
    }
    for (const host of ['sub.hooks.internal', 'hooks.internal.evil.example', 'internal', 'receiver2', 'hooks']) {
      expect(policy.trustsHost(host), host).toBe(false);
    }
    // A name exempts URLs with that host, not the addresses it resolves to: a name not listed is still checked.
    expect(policy.refusal('10.0.0.1')).toBe(refused('10.0.0.1', PRIVATE));
  });

  it('exempts a single address, v4 and v6, and only it', () => {
    const policy = addressPolicy('127.0.0.1,::1');
    expect(policy.refusal('127.0.0.1')).toBeNull();
    expect(policy.refusal('::1')).toBeNull();
    // The same address carried in IPv6.
    expect(policy.refusal('::ffff:127.0.0.1')).toBeNull();
    expect(policy.refusal('::ffff:7f00:1')).toBeNull();
    expect(policy.refusal('127.0.0.2')).toBe(refused('127.0.0.2', LOOPBACK));
    expect(policy.refusal('10.0.0.1')).toBe(refused('10.0.0.1', PRIVATE));
    expect(policy.trustsHost('127.0.0.1')).toBe(true);
    expect(policy.trustsHost('::1')).toBe(true);
    expect(policy.trustsHost('[::1]')).toBe(true);
    expect(policy.trustsHost('127.0.0.2')).toBe(false);
    expect(policy.trustsHost('localhost')).toBe(false);
  });

  it('exempts every address in a CIDR range, v4 and v6, and none outside it', () => {
    const policy = addressPolicy('10.20.0.0/16,fd00:1234::/32,169.254.169.254/32');
    expect(policy.refusal('10.20.0.0')).toBeNull();
    expect(policy.refusal('10.20.255.255')).toBeNull();
    expect(policy.refusal('::ffff:10.20.3.4')).toBeNull();
    expect(policy.refusal('10.21.0.0')).toBe(refused('10.21.0.0', PRIVATE));
    expect(policy.refusal('10.19.255.255')).toBe(refused('10.19.255.255', PRIVATE));
    expect(policy.refusal('fd00:1234::1')).toBeNull();
    expect(policy.refusal('fd00:1234:ffff::1')).toBeNull();
    expect(policy.refusal('fd00:1235::1')).toBe(refused('fd00:1235::1', UNIQUE_LOCAL));
    expect(policy.refusal('169.254.169.254')).toBeNull();
    expect(policy.refusal('169.254.169.253')).toBe(refused('169.254.169.253', LINK_LOCAL_V4));
    expect(policy.trustsHost('10.20.9.9')).toBe(true);
    expect(policy.trustsHost('[fd00:1234::9]')).toBe(true);
    expect(policy.trustsHost('10.21.9.9')).toBe(false);
    // NAT64's well-known prefix reaches exactly the address it carries; 6to4 is refused whatever it carries.
    expect(policy.refusal('64:ff9b::a14:304')).toBeNull();
    expect(policy.refusal('2002:a14:304::1')).toBe(refused('2002:a14:304::1', 'a 6to4 address'));
    // Public addresses stay allowed whatever is listed.
    expect(policy.refusal('8.8.8.8')).toBeNull();
  });

  it('0.0.0.0/0 and ::/0 exempt everything', () => {
    const policy = addressPolicy('0.0.0.0/0,::/0');
    for (const address of ['127.0.0.1', '10.0.0.1', '169.254.169.254', '::1', 'fd00:ec2::254', '::ffff:127.0.0.1']) {
      expect(policy.refusal(address), address).toBeNull();
    }
  });
});

describe('urlRefusal: what an endpoint URL may be', () => {
  const strict = addressPolicy('');
  const refusalOf = (url: string, policy = strict) => urlRefusal(new URL(url), policy);

  it('allows https to a host name or a public address', () => {
    expect(refusalOf('https://hooks.example.com')).toBeNull();
    expect(refusalOf('https://hooks.example.com:8443/coinventory?x=1')).toBeNull();
    expect(refusalOf('https://8.8.8.8/hooks')).toBeNull();
    expect(refusalOf('https://[2606:4700::1111]/hooks')).toBeNull();
  });

  it('requires https for a host the operator has not listed', () => {
    for (const url of ['http://hooks.example.com/x', 'http://8.8.8.8/', 'http://127.0.0.1:9/x', 'http://localhost/']) {
      expect(refusalOf(url), url).toBe(HTTPS_ONLY);
    }
    expect(refusalOf('http://hooks.example.com/x', addressPolicy('127.0.0.1'))).toBe(HTTPS_ONLY);
  });

  it('refuses localhost and its subdomains, in any case', () => {
    expect(refusalOf('https://localhost/')).toBe(refused('localhost', LOOPBACK));
    expect(refusalOf('https://LOCALHOST:8443/x')).toBe(refused('localhost', LOOPBACK));
    expect(refusalOf('https://x.localhost/')).toBe(refused('x.localhost', LOOPBACK));
    expect(refusalOf('https://a.b.localhost/')).toBe(refused('a.b.localhost', LOOPBACK));
    // A trailing dot names the same host.
    expect(refusalOf('https://localhost./')).toBe(refused('localhost', LOOPBACK));
    expect(refusalOf('https://x.localhost../')).toBe(refused('x.localhost', LOOPBACK));
    // Only the name itself: a host that merely contains it is an ordinary name.
    expect(refusalOf('https://localhost.example.com/')).toBeNull();
    expect(refusalOf('https://mylocalhost/')).toBeNull();
  });

  it('refuses a literal address in a forbidden range, however it is written', () => {
    expect(refusalOf('https://127.0.0.1/x')).toBe(refused('127.0.0.1', LOOPBACK));
    expect(refusalOf('https://[::1]/x')).toBe(refused('::1', LOOPBACK));
    expect(refusalOf('https://169.254.169.254/latest/meta-data')).toBe(refused('169.254.169.254', LINK_LOCAL_V4));
    expect(refusalOf('https://10.1.2.3/')).toBe(refused('10.1.2.3', PRIVATE));
    expect(refusalOf('https://[fd00:ec2::254]/')).toBe(refused('fd00:ec2::254', UNIQUE_LOCAL));
    // The URL parser's normal forms: decimal and hex IPv4, IPv4 in IPv6 and NAT64.
    expect(refusalOf('https://2130706433/')).toBe(refused('127.0.0.1', LOOPBACK));
    expect(refusalOf('https://0x7f.1/')).toBe(refused('127.0.0.1', LOOPBACK));
    expect(refusalOf('https://[::ffff:127.0.0.1]/')).toBe(refused('::ffff:7f00:1', LOOPBACK));
    expect(refusalOf('https://[0:0:0:0:0:ffff:7f00:1]/')).toBe(refused('::ffff:7f00:1', LOOPBACK));
    expect(refusalOf('https://[64:ff9b::10.0.0.1]/')).toBe(refused('64:ff9b::a00:1', PRIVATE));
  });

  it('lets a listed host use plain http and any address', () => {
    const loopback = addressPolicy('127.0.0.1');
    expect(refusalOf('http://127.0.0.1:9/x', loopback)).toBeNull();
    expect(refusalOf('https://127.0.0.1:9/x', loopback)).toBeNull();
    // Listing the address does not list the name.
    expect(refusalOf('http://localhost:9/x', loopback)).toBe(HTTPS_ONLY);
    expect(refusalOf('https://localhost:9/x', loopback)).toBe(refused('localhost', LOOPBACK));

    const named = addressPolicy('localhost,Hooks.Internal');
    expect(refusalOf('http://localhost:3000/hooks', named)).toBeNull();
    expect(refusalOf('http://hooks.internal/x', named)).toBeNull();
    expect(refusalOf('http://HOOKS.INTERNAL/x', named)).toBeNull();
    expect(refusalOf('http://x.localhost/', named)).toBe(HTTPS_ONLY);
    expect(refusalOf('http://sub.hooks.internal/x', named)).toBe(HTTPS_ONLY);

    const ranges = addressPolicy('10.0.0.0/8,fd00::/8');
    expect(refusalOf('http://10.1.2.3/', ranges)).toBeNull();
    expect(refusalOf('http://[fd00::1]:8080/', ranges)).toBeNull();
    expect(refusalOf('http://192.168.0.1/', ranges)).toBe(HTTPS_ONLY);
    expect(refusalOf('https://192.168.0.1/', ranges)).toBe(refused('192.168.0.1', PRIVATE));
    expect(refusalOf('http://[::1]/', addressPolicy('::1'))).toBeNull();
  });

  it('reads the host as written, lower-cased, without the brackets of an IPv6 literal', () => {
    expect(hostOf(new URL('https://Hooks.Example.COM/x'))).toBe('hooks.example.com');
    expect(hostOf(new URL('https://[::1]:8443/'))).toBe('::1');
    expect(hostOf(new URL('https://[FD00:EC2::254]/'))).toBe('fd00:ec2::254');
  });
});
