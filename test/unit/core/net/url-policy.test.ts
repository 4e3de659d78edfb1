import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createNetPolicy, type NetPolicyOptions } from '../../../../src/core/net/address-policy.js';
import { canonicalHost, createDestinationCheck } from '../../../../src/core/net/destination-check.js';
import type { Resolver } from '../../../../src/core/net/resolver.js';
import { checkUrl, DENIED_DESTINATION_MESSAGE, parseHttpUrl } from '../../../../src/core/net/url-policy.js';

// A DNS that exists only in this file. Names under .test never leave the machine, and the
// resolver is injected, so no lookup is made at all.
const ZONE: Record<string, string[]> = {
  localhost: ['127.0.0.1', '::1'],
  'public.test': ['93.184.216.34'],
  'public6.test': ['2606:4700:4700::1111'],
  'dual.test': ['93.184.216.34', '2606:4700:4700::1111'],
  'mixed.test': ['93.184.216.34', '10.0.0.1'],
  'mixed6.test': ['2606:4700:4700::1111', '::1'],
  'private.test': ['192.168.1.1'],
  'loopback.test': ['127.0.0.1'],
  'mapped.test': ['::ffff:127.0.0.1'],
  'mapped-public.test': ['::ffff:8.8.8.8'],
  'nat64.test': ['64:ff9b::a9fe:a9fe'],
  'metadata-alias.test': ['169.254.169.254'],
  'zero.test': ['0.0.0.0'],
  'empty.test': [],
  'internal.example.com': ['10.1.2.3'],
  'meta.example.com': ['169.254.169.254'],
};

function fakeResolver() {
  const calls: string[] = [];
  const resolve: Resolver = async (hostname) => {
    calls.push(hostname);
    const name = hostname.toLowerCase().replace(/\.$/, '');
    if (name === 'fail.test') throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${name}`), { code: 'ENOTFOUND' });
    const addresses = ZONE[name];
    if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${name}`), { code: 'ENOTFOUND' });
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }) as const);
  };
  return { resolve, calls };
}

function checker(options: NetPolicyOptions = {}) {
  const { resolve, calls } = fakeResolver();
  return { check: createDestinationCheck(createNetPolicy(options), resolve), calls };
}

describe('parseHttpUrl: the scheme must be http or https (400 otherwise)', () => {
  const notHttp = [
    'file:///etc/passwd',
    'FILE:///etc/passwd',
    'file://localhost/etc/passwd',
    'view-source:http://public.test/',
    'chrome://settings',
    'chrome-extension://abcdefghijklmnop/x.html',
    'chrome-error://chromewebdata/',
    'devtools://devtools/bundled/inspector.html',
    'data:text/html,<script>alert(1)</script>',
    'ftp://public.test/file',
    'javascript:alert(1)',
    'blob:http://public.test/0b2e1a9e-0000-4000-8000-000000000000',
    'filesystem:http://public.test/temporary/x',
    'about:blank',
    'ws://public.test/',
    'wss://public.test/',
    'gopher://127.0.0.1:25/',
    'dict://127.0.0.1:11211/',
    'jar:file:///x.jar!/y',
    'mailto:a@public.test',
  ];
  for (const input of notHttp) {
    test(`${input} -> 400 scheme`, () => {
      const parsed = parseHttpUrl(input);
      assert.equal(parsed.ok, false);
      if (!parsed.ok) assert.equal(parsed.reason, 'scheme');
    });
  }
  for (const input of ['', 'not a url', '//public.test/', '/relative', 'http://', 'http://[fe80::1%25eth0]/', 'http://[::1%25lo]/', 'http://4294967296/', 'http://999.1.1.1/', 'http://1.2.3.4.5/', 'http://a b/', 'http://[::1/']) {
    test(`${JSON.stringify(input)} -> 400 invalid-url`, () => {
      const parsed = parseHttpUrl(input);
      assert.equal(parsed.ok, false);
      if (!parsed.ok) assert.equal(parsed.reason, 'invalid-url');
    });
  }
});

describe('the WHATWG parser normalises every spelling of a host the way Chromium does', () => {
  // [as written, hostname the check sees]
  const forms: [string, string][] = [
    ['http://2130706433/', '127.0.0.1'],
    ['http://0x7f000001/', '127.0.0.1'],
    ['http://0x7f.1/', '127.0.0.1'],
    ['http://0x7f.0x0.0x0.0x1/', '127.0.0.1'],
    ['http://0177.0.0.1/', '127.0.0.1'],
    ['http://00000177.0.0.01/', '127.0.0.1'],
    ['http://017700000001/', '127.0.0.1'],
    ['http://127.1/', '127.0.0.1'],
    ['http://127.0.1/', '127.0.0.1'],
    ['http://127.0.0.1./', '127.0.0.1'],
    ['http://0/', '0.0.0.0'],
    ['http://%31%32%37.0.0.1/', '127.0.0.1'],
    ['http://%30x7f.1/', '127.0.0.1'],
    ['http://①②⑦.0.0.1/', '127.0.0.1'],
    ['http://127。0。0。1/', '127.0.0.1'],
    ['http://\t127.0.0.1/', '127.0.0.1'],
    [' http://127.0.0.1/ ', '127.0.0.1'],
    ['http://example.com@127.0.0.1/', '127.0.0.1'],
    ['http://user:pass@127.0.0.1:8080/', '127.0.0.1'],
    ['http://public.test:80@127.0.0.1/', '127.0.0.1'],
    ['http:/\\127.0.0.1/', '127.0.0.1'],
    ['http:127.0.0.1', '127.0.0.1'],
    ['HTTP://LOCALHOST/', 'localhost'],
    ['http://localhost./', 'localhost.'],
    ['http://[::ffff:127.0.0.1]/', '[::ffff:7f00:1]'],
    ['http://[0:0:0:0:0:ffff:7f00:1]/', '[::ffff:7f00:1]'],
    ['http://[::127.0.0.1]/', '[::7f00:1]'],
    ['http://[0000::1]/', '[::1]'],
    ['http://[64:ff9b::127.0.0.1]/', '[64:ff9b::7f00:1]'],
    ['http://PUBLIC.test./', 'public.test.'],
    ['http://bücher.example/', 'xn--bcher-kva.example'],
    // the userinfo tricks that do NOT change the host
    ['http://127.0.0.1:80@public.test/', 'public.test'],
    ['http://public.test#@127.0.0.1/', 'public.test'],
    ['http://public.test\\@127.0.0.1/', 'public.test'],
    ['http://127.0.0.1%2f@public.test/', 'public.test'],
  ];
  for (const [input, hostname] of forms) {
    test(`${JSON.stringify(input)} -> ${hostname}`, () => {
      const parsed = parseHttpUrl(input);
      assert.equal(parsed.ok, true);
      if (parsed.ok) assert.equal(parsed.url.hostname, hostname);
    });
  }
});

describe('checkUrl with the default policy', () => {
  // [url, expected: true for allowed or the deny reason]
  const table: [string, true | string][] = [
    // every spelling of loopback
    ['http://127.0.0.1/', 'loopback'],
    ['http://127.0.0.1:8080/admin', 'loopback'],
    ['https://127.0.0.1/', 'loopback'],
    ['http://2130706433/', 'loopback'],
    ['http://0x7f.1/', 'loopback'],
    ['http://0x7f000001/', 'loopback'],
    ['http://0177.0.0.1/', 'loopback'],
    ['http://127.1/', 'loopback'],
    ['http://127.0.0.1./', 'loopback'],
    ['http://%31%32%37.0.0.1/', 'loopback'],
    ['http://①②⑦.0.0.1/', 'loopback'],
    ['http://example.com@127.0.0.1/', 'loopback'],
    ['https://0x7f.1:8443/x?y=1', 'loopback'],
    ['http://[::1]/', 'loopback'],
    ['http://[::1]:9222/json', 'loopback'],
    ['http://[::ffff:127.0.0.1]/', 'loopback'],
    ['http://[0:0:0:0:0:ffff:7f00:1]/', 'loopback'],
    ['http://[64:ff9b::127.0.0.1]/', 'loopback'],
    ['http://localhost/', 'localhost-name'],
    ['HTTP://LOCALHOST:3000/', 'localhost-name'],
    ['http://localhost./', 'localhost-name'],
    ['http://foo.localhost/', 'localhost-name'],
    ['http://localhost.localdomain/', 'localhost-name'],
    ['http://loopback.test/', 'loopback'],
    ['http://mapped.test/', 'loopback'],
    // unspecified (reaches the host itself on Linux)
    ['http://0/', 'unspecified'],
    ['http://0.0.0.0:8080/', 'unspecified'],
    ['http://[::]/', 'unspecified'],
    ['http://zero.test/', 'unspecified'],
    // private, link-local, unique-local, CGNAT
    ['http://10.0.0.1/', 'private'],
    ['http://172.16.0.1/', 'private'],
    ['http://192.168.0.1/', 'private'],
    ['http://3232235521/', 'private'], // 192.168.0.1 in decimal
    ['http://0xa.1/', 'private'],
    ['http://private.test/', 'private'],
    ['http://169.254.1.1/', 'link-local'],
    ['http://[fe80::1]/', 'link-local'],
    ['http://[fc00::1]/', 'unique-local'],
    ['http://[fd12:3456::1]/', 'unique-local'],
    ['http://100.64.0.1/', 'carrier-grade-nat'],
    // metadata, by address and by name
    ['http://169.254.169.254/latest/meta-data/', 'metadata'],
    ['http://2852039166/latest/meta-data/', 'metadata'],
    ['http://0xa9.0xfe.0xa9.0xfe/', 'metadata'],
    ['http://[::ffff:169.254.169.254]/', 'metadata'],
    ['http://[64:ff9b::a9fe:a9fe]/', 'metadata'],
    ['http://[fd00:ec2::254]/latest/meta-data/', 'metadata'],
    ['http://100.100.100.200/latest/meta-data/', 'metadata'],
    ['http://169.254.170.2/v2/credentials', 'metadata'],
    ['http://metadata.google.internal/computeMetadata/v1/', 'metadata-name'],
    ['http://METADATA.GOOGLE.INTERNAL./', 'metadata-name'],
    ['http://metadata/', 'metadata-name'],
    ['http://metadata-alias.test/', 'metadata'],
    ['http://nat64.test/', 'metadata'],
    // multicast, broadcast, reserved, wrapped
    ['http://224.0.0.1/', 'multicast'],
    ['http://[ff02::1]/', 'multicast'],
    ['http://255.255.255.255/', 'broadcast'],
    ['http://192.0.2.1/', 'reserved'],
    ['http://240.0.0.1/', 'reserved'],
    ['http://[2001:db8::1]/', 'reserved'],
    ['http://[::127.0.0.1]/', 'ipv4-embedded'],
    ['http://[2002:7f00:1::]/', 'ipv4-embedded'],
    ['http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/', 'ipv4-embedded'],
    // one bad address denies the name
    ['http://mixed.test/', 'private'],
    ['http://mixed6.test/', 'loopback'],
    // names that do not resolve
    ['http://empty.test/', 'unresolvable'],
    ['http://fail.test/', 'unresolvable'],
    ['http://nowhere.test/', 'unresolvable'],
    // public destinations
    ['http://public.test/', true],
    ['https://public.test:8443/path?q=1#frag', true],
    ['http://PUBLIC.TEST./', true],
    ['http://public6.test/', true],
    ['http://dual.test/', true],
    ['http://mapped-public.test/', true],
    ['http://93.184.216.34/', true],
    ['http://1572395042/', true], // 93.184.216.34 in decimal
    ['http://[2606:4700:4700::1111]/', true],
    ['http://[::ffff:8.8.8.8]/', true],
    ['http://127.0.0.1:80@public.test/', true],
    ['http://public.test#@127.0.0.1/', true],
    ['http://public.test\\@127.0.0.1/', true],
  ];
  for (const [url, expected] of table) {
    test(`${JSON.stringify(url)} -> ${expected === true ? 'allowed' : `403 ${expected}`}`, async () => {
      const decision = await checkUrl(url, checker().check);
      if (expected === true) {
        assert.equal(decision.allowed, true, JSON.stringify(decision));
      } else {
        assert.equal(decision.allowed, false, `${url} was allowed`);
        if (!decision.allowed) {
          assert.equal(decision.reason, expected, decision.detail);
          assert.equal(decision.status, 403);
          assert.equal(decision.message, DENIED_DESTINATION_MESSAGE);
        }
      }
    });
  }

  test('the 403 message is the same for every denial and names no host or address', async () => {
    const messages = new Set<string>();
    for (const url of ['http://127.0.0.1:1/', 'http://127.0.0.1:22/', 'http://nowhere.test/', 'http://169.254.169.254/', 'http://private.test/']) {
      const d = await checkUrl(url, checker().check);
      if (!d.allowed) messages.add(d.message);
    }
    assert.equal(messages.size, 1);
    assert.doesNotMatch([...messages][0], /127|169|private|nowhere|resolve|refused|listen/i);
  });

  test('non-http(s) answers 400 with a message naming the scheme, and is never resolved', async () => {
    const { check, calls } = checker();
    const d = await checkUrl('file:///etc/passwd', check);
    assert.equal(d.allowed, false);
    if (!d.allowed) {
      assert.equal(d.status, 400);
      assert.match(d.message, /"file:"/);
    }
    assert.deepEqual(calls, []);
  });

  test('the allowed decision carries every checked address, to connect to and nothing else', async () => {
    const d = await checkUrl('http://dual.test/', checker().check);
    assert.equal(d.allowed, true);
    if (d.allowed) assert.deepEqual(d.addresses.map((a) => a.address), ['93.184.216.34', '2606:4700:4700::1111']);
  });

  test('an address literal and a loopback name are judged without any lookup', async () => {
    const { check, calls } = checker();
    await checkUrl('http://2130706433/', check);
    await checkUrl('http://[::1]/', check);
    await checkUrl('http://localhost/', check);
    await checkUrl('http://metadata.google.internal/', check);
    assert.deepEqual(calls, []);
  });

  test('a name is resolved exactly once per check', async () => {
    const { check, calls } = checker();
    await checkUrl('http://public.test/', check);
    assert.deepEqual(calls, ['public.test']);
  });
});

describe('checkUrl with operator settings', () => {
  const table: [string, NetPolicyOptions, string, true | string][] = [
    ['allowPrivate', { allowPrivate: true }, 'http://127.0.0.1:3000/', true],
    ['allowPrivate', { allowPrivate: true }, 'http://localhost:3000/', true],
    ['allowPrivate', { allowPrivate: true }, 'http://private.test/', true],
    ['allowPrivate', { allowPrivate: true }, 'http://[::ffff:127.0.0.1]/', true],
    ['allowPrivate', { allowPrivate: true }, 'http://169.254.169.254/', 'metadata'],
    ['allowPrivate', { allowPrivate: true }, 'http://metadata.google.internal/', 'metadata-name'],
    ['allowPrivate', { allowPrivate: true }, 'http://metadata-alias.test/', 'metadata'],
    ['allowPrivate', { allowPrivate: true }, 'http://0.0.0.0/', 'unspecified'],
    ['allowPrivate', { allowPrivate: true }, 'file:///etc/passwd', 'scheme'],
    ['CIDR', { allow: ['127.0.0.0/8'] }, 'http://2130706433/', true],
    ['CIDR', { allow: ['127.0.0.0/8'] }, 'http://[::ffff:127.0.0.1]/', true],
    ['CIDR', { allow: ['127.0.0.0/8'] }, 'http://loopback.test/', true],
    ['CIDR', { allow: ['127.0.0.0/8'] }, 'http://mixed6.test/', 'loopback'], // ::1 is outside 127/8
    ['CIDR', { allow: ['127.0.0.0/8'] }, 'http://localhost/', 'localhost-name'],
    ['host', { allow: ['localhost'] }, 'http://localhost:3000/', true], // a trusted name opens what it resolves to
    ['wildcard', { allow: ['*.example.com'] }, 'http://internal.example.com/', true],
    ['wildcard', { allow: ['*.example.com'] }, 'http://INTERNAL.EXAMPLE.COM./', true],
    ['wildcard', { allow: ['*.example.com'] }, 'http://meta.example.com/', 'metadata'],
    ['wildcard', { allow: ['*.example.com'] }, 'http://private.test/', 'private'],
    ['exact', { allow: ['internal.example.com'] }, 'http://internal.example.com/', true],
    ['allow-list only', { allowPublic: false }, 'http://public.test/', 'not-allow-listed'],
    ['allow-list only', { allowPublic: false }, 'http://93.184.216.34/', 'not-allow-listed'],
    ['allow-list only', { allowPublic: false, allow: ['public.test'] }, 'http://public.test/', true],
    ['allow-list only', { allowPublic: false, allow: ['public.test'] }, 'http://public6.test/', 'not-allow-listed'],
    ['allow-list only', { allowPublic: false, allow: ['93.184.216.0/24'] }, 'http://93.184.216.34/', true],
  ];
  for (const [label, options, url, expected] of table) {
    test(`${label}: ${url} -> ${expected === true ? 'allowed' : expected}`, async () => {
      const decision = await checkUrl(url, checker(options).check);
      if (expected === true) assert.equal(decision.allowed, true, JSON.stringify(decision));
      else {
        assert.equal(decision.allowed, false);
        if (!decision.allowed) assert.equal(decision.reason, expected, decision.detail);
      }
    });
  }

  test('with only the allow-list open, an unlisted name is not even looked up (no DNS leak)', async () => {
    const { check, calls } = checker({ allowPublic: false, allow: ['public.test'] });
    await checkUrl('http://secret-data.attacker.test/', check);
    assert.deepEqual(calls, []);
  });
});

describe('canonicalHost: how the proxy reads a CONNECT host', () => {
  const cases: [string, string | undefined][] = [
    ['127.0.0.1', '127.0.0.1'],
    ['0x7f.1', '127.0.0.1'],
    ['2130706433', '127.0.0.1'],
    ['::1', '[::1]'],
    ['[::1]', '[::1]'],
    ['::ffff:127.0.0.1', '[::ffff:7f00:1]'],
    ['Public.TEST', 'public.test'],
    ['public.test.', 'public.test.'],
    ['', undefined],
    ['a b', undefined],
    ['user@127.0.0.1', undefined],
    ['127.0.0.1/x', undefined],
    ['127.0.0.1:80', undefined],
    ['fe80::1%eth0', undefined],
  ];
  for (const [input, expected] of cases) test(`${JSON.stringify(input)} -> ${expected}`, () => assert.equal(canonicalHost(input), expected));
});
