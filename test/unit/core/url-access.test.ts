import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ImprintError } from '../../../src/core/errors.js';
import { createNetPolicy } from '../../../src/core/net/address-policy.js';
import type { Resolver } from '../../../src/core/net/resolver.js';
import { DENIED_DESTINATION_MESSAGE } from '../../../src/core/net/url-policy.js';
import { checkRenderUrl, localUrlAccess, serviceUrlAccess, type UrlAccess } from '../../../src/core/url-access.js';

// Names under .test exist only here: no lookup leaves the process.
const ZONE: Record<string, string[]> = {
  localhost: ['127.0.0.1', '::1'],
  'public.test': ['93.184.216.34'],
  'mixed.test': ['93.184.216.34', '10.0.0.1'],
  'intranet.test': ['10.1.2.3'],
  'metadata-alias.test': ['169.254.169.254'],
};
const resolve: Resolver = async (name) => {
  const addresses = ZONE[name.toLowerCase().replace(/\.$/, '')];
  if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${name}`), { code: 'ENOTFOUND' });
  return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }) as const);
};

const service = (options = {}) => serviceUrlAccess(createNetPolicy(options), resolve);
const local = (allowLocal: boolean) => localUrlAccess(allowLocal, resolve);

async function refusal(input: string, access: UrlAccess): Promise<ImprintError> {
  try {
    await checkRenderUrl(input, access);
  } catch (error) {
    assert.ok(error instanceof ImprintError, String(error));
    return error;
  }
  assert.fail(`${input} was allowed`);
}

describe('the service (the operator policy, public only by default)', () => {
  for (const url of ['https://public.test/page', 'http://93.184.216.34/', 'http://PUBLIC.test./a?b#c']) {
    test(`allows ${url}`, async () => assert.match(await checkRenderUrl(url, service()), /^https?:\/\//));
  }
  test('answers the URL as the WHATWG parser normalised it', async () => {
    assert.equal(await checkRenderUrl('HTTP://Public.TEST/a b', service()), 'http://public.test/a%20b');
  });

  const denied = [
    'http://127.0.0.1:8080/',
    'http://localhost/',
    'http://127.1/',
    'http://2130706433/',
    'http://0x7f.0.0.1/',
    'http://[::1]/',
    'http://[::ffff:127.0.0.1]/',
    'http://user:pass@127.0.0.1/',
    'http://public.test@127.0.0.1/',
    'http://10.0.0.1/',
    'http://192.168.1.1/',
    'http://169.254.169.254/latest/meta-data/',
    'http://metadata.google.internal/',
    'http://0.0.0.0/',
    'http://mixed.test/',
    'http://intranet.test/',
    'http://no-such-name.test/',
  ];
  for (const url of denied) {
    test(`403 with the one safe message: ${url}`, async () => {
      const error = await refusal(url, service());
      assert.equal(error.code, 'URL_DENIED');
      assert.equal(error.httpStatus, 403);
      assert.equal(error.message, DENIED_DESTINATION_MESSAGE);
      assert.ok(error.details, 'the reason is kept for the log');
    });
  }

  const notHttp = ['file:///etc/passwd', 'FILE:///etc/passwd', 'ftp://public.test/', 'data:text/html,<h1>x</h1>', 'javascript:alert(1)', 'view-source:https://public.test/', 'chrome://version', 'gopher://public.test/', 'ws://public.test/'];
  for (const url of notHttp) {
    test(`400 for a scheme never rendered: ${url}`, async () => {
      const error = await refusal(url, service());
      assert.equal(error.httpStatus, 400);
      assert.equal(error.code, 'INVALID_INPUT');
      assert.match(error.message, /^Invalid url .*only http and https/);
    });
  }
  for (const url of ['not a url', '/relative/path', '', 'http://', 'http://exa mple.test/']) {
    test(`400 for what is not a URL: ${JSON.stringify(url)}`, async () => {
      const error = await refusal(url, service());
      assert.equal(error.httpStatus, 400);
      assert.match(error.message, /^Invalid url/);
    });
  }

  test('--allow-private opens loopback and private addresses', async () => {
    assert.equal(await checkRenderUrl('http://127.0.0.1:9/x', service({ allowPrivate: true })), 'http://127.0.0.1:9/x');
    assert.equal(await checkRenderUrl('http://intranet.test/', service({ allowPrivate: true })), 'http://intranet.test/');
  });
  test('--allow-private leaves cloud metadata closed', async () => {
    assert.equal((await refusal('http://169.254.169.254/', service({ allowPrivate: true }))).httpStatus, 403);
    assert.equal((await refusal('http://metadata-alias.test/', service({ allowPrivate: true }))).httpStatus, 403);
  });
  test('--allow-host opens a name, a wildcard, an address and a range, nothing else', async () => {
    const access = service({ allow: ['intranet.test', '*.corp.test', '127.0.0.1', '192.168.0.0/16'] });
    assert.ok(await checkRenderUrl('http://intranet.test/', access));
    assert.ok(await checkRenderUrl('http://127.0.0.1:1234/', access));
    assert.ok(await checkRenderUrl('http://192.168.7.7/', access));
    assert.equal((await refusal('http://127.0.0.2/', access)).httpStatus, 403);
    assert.equal((await refusal('http://10.0.0.1/', access)).httpStatus, 403);
  });
  test('the service never opens a file, whatever its policy', async () => {
    assert.equal((await refusal('file:///etc/passwd', service({ allowPrivate: true }))).httpStatus, 400);
  });
});

describe('the CLI (public only unless --allow-local)', () => {
  test('a public page needs no flag', async () => assert.equal(await checkRenderUrl('https://public.test/', local(false)), 'https://public.test/'));

  for (const url of ['http://127.0.0.1:3000/report', 'http://localhost:3000/', 'http://[::1]/', 'http://192.168.1.20/', 'http://intranet.test/']) {
    test(`refuses ${url} without --allow-local, says why and names the flag`, async () => {
      const error = await refusal(url, local(false));
      assert.equal(error.code, 'URL_DENIED');
      assert.equal(error.exitCode, 1);
      assert.match(error.message, /^Refusing to render .*: .*(loopback|private).*pass --allow-local/);
    });
    test(`renders ${url} with --allow-local`, async () => assert.match(await checkRenderUrl(url, local(true)), /^http:/));
  }

  test('a file needs --allow-local', async () => {
    const error = await refusal('file:///home/me/page.html', local(false));
    assert.equal(error.code, 'URL_DENIED');
    assert.match(error.message, /local files are rendered only when you pass --allow-local/);
    assert.equal(await checkRenderUrl('file:///home/me/page.html', local(true)), 'file:///home/me/page.html');
  });
  test('a file URL with a host is not a local file', async () => {
    assert.equal((await refusal('file://server/share/page.html', local(true))).code, 'USAGE');
  });
  test('cloud metadata is refused even with --allow-local, without suggesting the flag', async () => {
    const error = await refusal('http://169.254.169.254/', local(true));
    assert.match(error.message, /metadata.*never renders this address/);
    assert.doesNotMatch(error.message, /pass --allow-local/);
  });
  test('a name that does not resolve says so', async () => {
    assert.match((await refusal('https://no-such-name.test/', local(false))).message, /^Cannot render .*did not resolve/);
  });
  for (const url of ['not a url', 'ftp://public.test/', 'javascript:alert(1)']) {
    test(`${url}: a usage error (exit 2) naming --url`, async () => {
      const error = await refusal(url, local(true));
      assert.equal(error.code, 'USAGE');
      assert.equal(error.exitCode, 2);
      assert.match(error.message, /^Invalid --url/);
    });
  }
});
