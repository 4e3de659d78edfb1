import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { EGRESS_LOCKDOWN_FLAGS, egressChromiumArgs } from '../../../../src/core/net/chromium-flags.js';
import { pageRequestVerdict } from '../../../../src/core/net/page-request-policy.js';

describe('pageRequestVerdict: which schemes a page being rendered may load', () => {
  // [url, main-frame navigation?, expected action]
  const table: [string, boolean, 'network' | 'local' | 'deny'][] = [
    ['http://public.test/', true, 'network'],
    ['https://public.test/a.png', false, 'network'],
    ['ws://public.test/socket', false, 'network'],
    ['wss://public.test/socket', false, 'network'],
    ['about:blank', true, 'local'],
    ['about:srcdoc', false, 'local'],
    ['about:config', true, 'deny'],
    ['data:image/png;base64,iVBORw0KGgo=', false, 'local'],
    ['data:text/html,<h1>frame</h1>', false, 'local'],
    ['data:text/html,<h1>top</h1>', true, 'deny'],
    ['blob:http://public.test/0b2e1a9e-0000-4000-8000-000000000000', false, 'local'],
    ['blob:http://public.test/0b2e1a9e-0000-4000-8000-000000000000', true, 'deny'],
    ['file:///etc/passwd', false, 'deny'],
    ['file:///etc/passwd', true, 'deny'],
    ['FILE:///etc/passwd', false, 'deny'],
    ['view-source:http://public.test/', true, 'deny'],
    ['chrome://settings/', true, 'deny'],
    ['chrome://gpu/', false, 'deny'],
    ['chrome-extension://abcdefghijklmnop/x.js', false, 'deny'],
    ['devtools://devtools/bundled/inspector.html', true, 'deny'],
    ['filesystem:http://public.test/temporary/x', false, 'deny'],
    ['ftp://public.test/file', false, 'deny'],
    ['javascript:alert(1)', true, 'deny'],
    ['gopher://127.0.0.1:25/', false, 'deny'],
    ['not a url', false, 'deny'],
  ];
  for (const [url, isMainFrameNavigation, expected] of table) {
    test(`${url} (${isMainFrameNavigation ? 'top level' : 'sub-resource'}) -> ${expected}`, () => {
      assert.equal(pageRequestVerdict({ url, isMainFrameNavigation }).action, expected);
    });
  }
});

describe('egressChromiumArgs', () => {
  test('points Chromium at the proxy and closes the paths around it', () => {
    const args = egressChromiumArgs(4567);
    assert.equal(args[0], '--proxy-server=http://127.0.0.1:4567');
    for (const flag of ['--proxy-bypass-list=<-loopback>', '--disable-quic', '--force-webrtc-ip-handling-policy=disable_non_proxied_udp']) {
      assert.ok(args.includes(flag), flag);
    }
    assert.ok(args.some((a) => a.startsWith('--host-resolver-rules=') && a.includes('EXCLUDE 127.0.0.1')));
    assert.deepEqual(args.slice(1), [...EGRESS_LOCKDOWN_FLAGS]);
  });
});
