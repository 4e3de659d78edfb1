import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseAllowList } from '../../../../src/core/net/allow-list.js';

describe('parseAllowList: what an operator can write', () => {
  const list = parseAllowList([
    'assets.example.com',
    '*.cdn.example.org',
    'EXACT.Example.NET.',
    'bücher.example',
    '10.0.0.0/8',
    '192.168.1.20',
    'fd00:1234::/32',
    '[::1]',
    ' 172.16.0.0/12 ',
  ]);

  test('normalises names and ranges', () => {
    assert.deepEqual(list.names, ['assets.example.com', 'exact.example.net', 'xn--bcher-kva.example']);
    assert.deepEqual(list.suffixes, ['.cdn.example.org']);
    assert.deepEqual(list.ranges, ['10.0.0.0/8', '192.168.1.20/32', 'fd00:1234::/32', '::1/128', '172.16.0.0/12']);
  });

  const hosts: [string, boolean][] = [
    ['assets.example.com', true],
    ['ASSETS.EXAMPLE.COM', true],
    ['assets.example.com.', true],
    ['example.com', false],
    ['evil-assets.example.com', false],
    ['assets.example.com.evil.com', false],
    ['a.cdn.example.org', true],
    ['a.b.cdn.example.org', true],
    ['cdn.example.org', false], // a wildcard covers the names below, not the name itself
    ['evilcdn.example.org', false],
    ['exact.example.net', true],
    ['xn--bcher-kva.example', true],
  ];
  for (const [host, expected] of hosts) test(`host ${host} -> ${expected}`, () => assert.equal(list.matchesHost(host), expected));

  const addresses: [string, boolean][] = [
    ['10.1.2.3', true],
    ['11.0.0.1', false],
    ['192.168.1.20', true],
    ['192.168.1.21', false],
    ['fd00:1234:5678::1', true],
    ['fd00:1235::1', false],
    ['::1', true],
    ['172.20.0.1', true],
    ['not-an-ip', false],
  ];
  for (const [address, expected] of addresses) test(`address ${address} -> ${expected}`, () => assert.equal(list.matchesAddress(address), expected));

  test('namesAddress is true only for single-address entries', () => {
    assert.equal(list.namesAddress('192.168.1.20'), true);
    assert.equal(list.namesAddress('::1'), true);
    assert.equal(list.namesAddress('10.0.0.1'), false);
  });

  test('an empty list matches nothing', () => {
    const empty = parseAllowList();
    assert.equal(empty.matchesHost('example.com'), false);
    assert.equal(empty.matchesAddress('127.0.0.1'), false);
  });
});

describe('parseAllowList rejects what it cannot read, naming the entry', () => {
  for (const bad of ['', 'http://example.com', 'example.com/path', 'example.com:8080', 'user@example.com', '*', '*.', 'a.*.example.com', 'foo*.example.com', '10.0.0.0/33', '10.0.0.0/-1', '10.0.0.0/8/8', '::/129', '127.1/8', '0x7f.0.0.1', 'exa mple.com', '10.0.0.0/abc']) {
    test(JSON.stringify(bad), () => {
      assert.throws(
        () => parseAllowList([bad]),
        (error: any) => error.code === 'USAGE' && error.message.includes(JSON.stringify(bad)) && /\*\.example\.com/.test(error.message),
      );
    });
  }
  test('all bad entries are listed in one message', () => {
    assert.throws(() => parseAllowList(['ok.example.com', 'bad/1', 'bad:2']), /entries "bad\/1", "bad:2"/);
  });
});
