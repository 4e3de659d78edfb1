import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createNetPolicy, type NetPolicyOptions } from '../../../../src/core/net/address-policy.js';
import { classifyIp, embeddedIPv4, parseIp, type IpClass } from '../../../../src/core/net/ip-class.js';

describe('classifyIp: every class, IPv4', () => {
  const cases: [string, IpClass][] = [
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['10.0.0.1', 'private'],
    ['10.255.255.255', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['172.15.255.255', 'public'],
    ['172.32.0.1', 'public'],
    ['192.168.1.1', 'private'],
    ['169.254.1.1', 'link-local'],
    ['169.254.169.254', 'metadata'],
    ['169.254.170.2', 'metadata'],
    ['169.254.170.23', 'metadata'],
    ['169.254.0.23', 'metadata'],
    ['100.100.100.200', 'metadata'],
    ['192.0.0.192', 'metadata'],
    ['168.63.129.16', 'metadata'], // public range: only the metadata list catches it
    ['168.63.129.17', 'public'],
    ['100.64.0.1', 'carrier-grade-nat'],
    ['100.127.255.255', 'carrier-grade-nat'],
    ['100.63.255.255', 'public'],
    ['100.128.0.1', 'public'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['240.0.0.1', 'reserved'],
    ['192.0.2.1', 'reserved'], // TEST-NET-1
    ['198.51.100.7', 'reserved'], // TEST-NET-2
    ['203.0.113.9', 'reserved'], // TEST-NET-3
    ['198.18.0.1', 'reserved'], // benchmarking
    ['198.19.255.255', 'reserved'],
    ['192.0.0.8', 'reserved'], // IETF protocol assignments
    ['192.88.99.1', 'reserved'], // 6to4 relay anycast
    ['192.175.48.1', 'reserved'], // AS112
    ['8.8.8.8', 'public'],
    ['1.1.1.1', 'public'],
    ['93.184.216.34', 'public'],
  ];
  for (const [address, expected] of cases) test(`${address} -> ${expected}`, () => assert.equal(classifyIp(address)?.class, expected));
});

describe('classifyIp: every class, IPv6', () => {
  const cases: [string, IpClass][] = [
    ['::1', 'loopback'],
    ['0:0:0:0:0:0:0:1', 'loopback'],
    ['::', 'unspecified'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['febf:ffff::1', 'link-local'],
    ['fc00::1', 'unique-local'],
    ['fd12:3456:789a::1', 'unique-local'],
    ['fec0::1', 'unique-local'], // deprecated site-local
    ['ff02::1', 'multicast'],
    ['ff0e::1', 'multicast'],
    ['fd00:ec2::254', 'metadata'],
    ['fd00:ec2::23', 'metadata'],
    ['fd20:ce::254', 'metadata'],
    ['2001:db8::1', 'reserved'], // documentation
    ['100::1', 'reserved'], // discard
    ['2001:2::1', 'reserved'], // benchmarking
    ['2001:10::1', 'reserved'], // ORCHID
    ['3fff::1', 'reserved'], // documentation (RFC 9637)
    ['4000::1', 'reserved'], // outside 2000::/3, not allocated
    ['5f00::1', 'reserved'], // segment routing
    ['2606:4700:4700::1111', 'public'],
    ['2001:4860:4860::8888', 'public'],
    ['[2606:4700:4700::1111]', 'public'], // a URL's bracketed form
  ];
  for (const [address, expected] of cases) test(`${address} -> ${expected}`, () => assert.equal(classifyIp(address)?.class, expected));
});

describe('classifyIp: IPv6 forms that wrap an IPv4 address', () => {
  // [address, class, wrapper, inner IPv4]
  const cases: [string, IpClass, string, string][] = [
    // IPv4-mapped: the socket really talks IPv4 to the inner address, so the inner one decides.
    ['::ffff:127.0.0.1', 'loopback', 'ipv4-mapped', '127.0.0.1'],
    ['::ffff:7f00:1', 'loopback', 'ipv4-mapped', '127.0.0.1'],
    ['0:0:0:0:0:ffff:7f00:1', 'loopback', 'ipv4-mapped', '127.0.0.1'],
    ['::FFFF:127.0.0.1', 'loopback', 'ipv4-mapped', '127.0.0.1'],
    ['::ffff:10.0.0.1', 'private', 'ipv4-mapped', '10.0.0.1'],
    ['::ffff:169.254.169.254', 'metadata', 'ipv4-mapped', '169.254.169.254'],
    ['::ffff:0.0.0.0', 'unspecified', 'ipv4-mapped', '0.0.0.0'],
    ['::ffff:8.8.8.8', 'public', 'ipv4-mapped', '8.8.8.8'],
    // NAT64 well-known prefix: an IPv6-only network's way to a public IPv4 host.
    ['64:ff9b::127.0.0.1', 'loopback', 'nat64', '127.0.0.1'],
    ['64:ff9b::a9fe:a9fe', 'metadata', 'nat64', '169.254.169.254'],
    ['64:ff9b::10.1.2.3', 'private', 'nat64', '10.1.2.3'],
    ['64:ff9b::8.8.8.8', 'public', 'nat64', '8.8.8.8'],
    // Refused whatever they carry.
    ['64:ff9b:1::a00:1', 'ipv4-embedded', 'nat64-local', '10.0.0.1'],
    ['::127.0.0.1', 'ipv4-embedded', 'ipv4-compatible', '127.0.0.1'],
    ['::8.8.8.8', 'ipv4-embedded', 'ipv4-compatible', '8.8.8.8'],
    ['::ffff:0:127.0.0.1', 'ipv4-embedded', 'ipv4-translated', '127.0.0.1'],
    ['2002:7f00:1::', 'ipv4-embedded', '6to4', '127.0.0.1'],
    ['2002:a9fe:a9fe::1', 'ipv4-embedded', '6to4', '169.254.169.254'],
    ['2002:808:808::1', 'ipv4-embedded', '6to4', '8.8.8.8'],
    // Teredo (RFC 4380's example): the client address is stored inverted.
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'ipv4-embedded', 'teredo', '192.0.2.45'],
  ];
  for (const [address, expectedClass, wrapper, ipv4] of cases) {
    test(`${address} -> ${expectedClass} (${wrapper} of ${ipv4})`, () => {
      const c = classifyIp(address);
      assert.equal(c?.class, expectedClass);
      assert.deepEqual(c?.embedded, { ipv4, wrapper });
    });
  }
  test('plain IPv6 addresses carry no embedded address', () => {
    for (const a of ['::1', '::', '2606:4700:4700::1111', 'fe80::1']) assert.equal(embeddedIPv4(parseIp(a) as never), undefined, a);
  });
});

describe('classifyIp reads only canonical spellings: legacy IPv4 forms are the URL parser’s job', () => {
  for (const text of ['127.1', '0x7f.0.0.1', '0177.0.0.1', '2130706433', '01.2.3.4', '1.2.3', '1.2.3.4.5', '256.0.0.1', '', 'localhost', 'example.com', '::ffff:999.0.0.1', '[::1', '1::2::3', ' 127.0.0.1']) {
    test(`${JSON.stringify(text)} is not an address`, () => assert.equal(classifyIp(text), undefined));
  }
});

describe('createNetPolicy().checkAddress', () => {
  type Expect = true | string; // true: allowed; a string: the deny reason
  const table: [string, NetPolicyOptions, string, Expect, string?][] = [
    // default: public only
    ['default', {}, '8.8.8.8', true, 'public'],
    ['default', {}, '2606:4700:4700::1111', true, 'public'],
    ['default', {}, '::ffff:8.8.8.8', true, 'public'],
    ['default', {}, '64:ff9b::8.8.8.8', true, 'public'],
    ['default', {}, '127.0.0.1', 'loopback'],
    ['default', {}, '::1', 'loopback'],
    ['default', {}, '::ffff:127.0.0.1', 'loopback'],
    ['default', {}, '10.0.0.1', 'private'],
    ['default', {}, '172.16.5.4', 'private'],
    ['default', {}, '192.168.0.1', 'private'],
    ['default', {}, '169.254.1.1', 'link-local'],
    ['default', {}, 'fe80::1', 'link-local'],
    ['default', {}, 'fd00::1', 'unique-local'],
    ['default', {}, '100.64.0.1', 'carrier-grade-nat'],
    ['default', {}, '0.0.0.0', 'unspecified'],
    ['default', {}, '::', 'unspecified'],
    ['default', {}, '224.0.0.251', 'multicast'],
    ['default', {}, 'ff02::fb', 'multicast'],
    ['default', {}, '255.255.255.255', 'broadcast'],
    ['default', {}, '192.0.2.1', 'reserved'],
    ['default', {}, '2001:db8::1', 'reserved'],
    ['default', {}, '169.254.169.254', 'metadata'],
    ['default', {}, 'fd00:ec2::254', 'metadata'],
    ['default', {}, '100.100.100.200', 'metadata'],
    ['default', {}, '2002:7f00:1::', 'ipv4-embedded'],
    ['default', {}, '2002:808:808::', 'ipv4-embedded'],
    ['default', {}, '127.1', 'invalid-address'],
    // allowPrivate: internal services, never metadata, never the odd classes
    ['allowPrivate', { allowPrivate: true }, '127.0.0.1', true, 'allow-private'],
    ['allowPrivate', { allowPrivate: true }, '::1', true, 'allow-private'],
    ['allowPrivate', { allowPrivate: true }, '::ffff:127.0.0.1', true, 'allow-private'],
    ['allowPrivate', { allowPrivate: true }, '10.0.0.1', true, 'allow-private'],
    ['allowPrivate', { allowPrivate: true }, '169.254.1.1', true, 'allow-private'],
    ['allowPrivate', { allowPrivate: true }, 'fd00::1', true, 'allow-private'],
    ['allowPrivate', { allowPrivate: true }, '100.64.0.1', true, 'allow-private'],
    ['allowPrivate', { allowPrivate: true }, '8.8.8.8', true, 'public'],
    ['allowPrivate', { allowPrivate: true }, '169.254.169.254', 'metadata'],
    ['allowPrivate', { allowPrivate: true }, '::ffff:169.254.169.254', 'metadata'],
    ['allowPrivate', { allowPrivate: true }, 'fd00:ec2::254', 'metadata'],
    ['allowPrivate', { allowPrivate: true }, '100.100.100.200', 'metadata'],
    ['allowPrivate', { allowPrivate: true }, '0.0.0.0', 'unspecified'],
    ['allowPrivate', { allowPrivate: true }, '224.0.0.1', 'multicast'],
    ['allowPrivate', { allowPrivate: true }, '2002:7f00:1::', 'ipv4-embedded'],
    // CIDR allow-list
    ['allow 127/8', { allow: ['127.0.0.0/8'] }, '127.0.0.1', true, 'allow-list'],
    ['allow 127/8', { allow: ['127.0.0.0/8'] }, '127.9.9.9', true, 'allow-list'],
    ['allow 127/8', { allow: ['127.0.0.0/8'] }, '::ffff:127.0.0.1', true, 'allow-list'],
    ['allow 127/8', { allow: ['127.0.0.0/8'] }, '10.0.0.1', 'private'],
    ['allow 127/8', { allow: ['127.0.0.0/8'] }, '::1', 'loopback'],
    ['allow ::1', { allow: ['::1'] }, '::1', true, 'allow-list'],
    ['allow 10.1/16', { allow: ['10.1.0.0/16'] }, '10.1.200.3', true, 'allow-list'],
    ['allow 10.1/16', { allow: ['10.1.0.0/16'] }, '10.2.0.1', 'private'],
    // metadata: only an entry naming that one address opens it
    ['allow 169.254/16', { allow: ['169.254.0.0/16'] }, '169.254.1.1', true, 'allow-list'],
    ['allow 169.254/16', { allow: ['169.254.0.0/16'] }, '169.254.169.254', 'metadata'],
    ['allow 0/0', { allow: ['0.0.0.0/0'] }, '169.254.169.254', 'metadata'],
    ['allow exact metadata', { allow: ['169.254.169.254'] }, '169.254.169.254', true, 'allow-list'],
    ['allow exact metadata', { allow: ['169.254.169.254/32'] }, '::ffff:169.254.169.254', true, 'allow-list'],
    // allowPublic: false leaves the allow-list only
    ['allow-list only', { allowPublic: false }, '8.8.8.8', 'not-allow-listed'],
    ['allow-list only', { allowPublic: false }, '127.0.0.1', 'loopback'],
    ['allow-list only', { allowPublic: false, allow: ['8.8.8.0/24'] }, '8.8.8.8', true, 'allow-list'],
    ['allow-list only', { allowPublic: false, allow: ['8.8.8.0/24'] }, '8.8.4.4', 'not-allow-listed'],
  ];
  for (const [label, options, address, expected, basis] of table) {
    test(`${label}: ${address} -> ${expected === true ? `allowed (${basis})` : expected}`, () => {
      const decision = createNetPolicy(options).checkAddress(address);
      if (expected === true) {
        assert.equal(decision.allowed, true, JSON.stringify(decision));
        if (decision.allowed) assert.equal(decision.basis, basis);
      } else {
        assert.equal(decision.allowed, false, JSON.stringify(decision));
        if (!decision.allowed) assert.equal(decision.reason, expected);
      }
    });
  }

  test('a trusted host name opens every class but metadata', () => {
    const policy = createNetPolicy({ allow: ['internal.example.com'] });
    assert.equal(policy.checkAddress('10.0.0.1', { trustedHost: true }).allowed, true);
    assert.equal(policy.checkAddress('127.0.0.1', { trustedHost: true }).allowed, true);
    const meta = policy.checkAddress('169.254.169.254', { trustedHost: true });
    assert.equal(meta.allowed, false);
    if (!meta.allowed) assert.equal(meta.reason, 'metadata');
  });

  test('the detail names the wrapped address for the log', () => {
    const d = createNetPolicy().checkAddress('::ffff:127.0.0.1');
    assert.equal(d.allowed, false);
    if (!d.allowed) assert.match(d.detail, /ipv4-mapped form of 127\.0\.0\.1.*loopback/);
  });
});
