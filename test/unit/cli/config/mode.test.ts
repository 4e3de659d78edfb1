/** The pure decisions of the remote mode: which mode, which URL and key, durations, error words. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ApiError, ApiUnreachableError } from '../../../../src/client/errors.js';
import { explainRemoteError } from '../../../../src/backend/remote-errors.js';
import { chooseMode, normalizeApiUrl, requireConnection, resolveConnection } from '../../../../src/cli/config/mode.js';
import { ImprintError } from '../../../../src/core/errors.js';
import { parseDuration } from '../../../../src/backend/duration.js';
import { downloadUrl } from '../../../../src/server/urls.js';

const both = { apiUrl: 'http://h', apiKey: 'k' };

describe('chooseMode', () => {
  const cases: [string, Parameters<typeof chooseMode>, 'remote' | 'embedded'][] = [
    ['--remote wins over env', [{ remote: true }, { IMPRINT_MODE: 'embedded' }, {}], 'remote'],
    ['--embedded wins over a login', [{ embedded: true }, {}, both], 'embedded'],
    ['IMPRINT_MODE=remote', [{}, { IMPRINT_MODE: 'remote' }, {}], 'remote'],
    ['IMPRINT_MODE=embedded wins over a login', [{}, { IMPRINT_MODE: 'Embedded' }, both], 'embedded'],
    ['URL and key known: remote', [{}, {}, both], 'remote'],
    ['only a URL: embedded', [{}, {}, { apiUrl: 'http://h' }], 'embedded'],
    ['nothing: embedded', [{}, {}, {}], 'embedded'],
  ];
  for (const [name, args, mode] of cases) test(name, () => assert.equal(chooseMode(...args), mode));

  test('both flags, or a bad IMPRINT_MODE, are usage errors', () => {
    assert.throws(() => chooseMode({ remote: true, embedded: true }, {}, {}), (e: ImprintError) => e.code === 'USAGE');
    assert.throws(() => chooseMode({}, { IMPRINT_MODE: 'cloud' }, {}), /IMPRINT_MODE/);
  });
});

test('resolveConnection: flag, else env, else stored; blanks do not count', () => {
  assert.deepEqual(resolveConnection({ apiUrl: 'http://flag' }, { IMPRINT_API_URL: 'http://env', IMPRINT_API_KEY: 'envkey' }, { apiUrl: 'http://stored', apiKey: 'storedkey' }), {
    apiUrl: 'http://flag',
    apiKey: 'envkey',
  });
  assert.deepEqual(resolveConnection({ apiKey: ' ' }, { IMPRINT_API_URL: '' }, { apiUrl: 'http://stored', apiKey: 'storedkey' }), { apiUrl: 'http://stored', apiKey: 'storedkey' });
});

test('requireConnection names what is missing and how to fix it', () => {
  assert.throws(() => requireConnection({ apiUrl: 'http://h' }), /API key is missing.*imprint login/);
  assert.deepEqual(requireConnection({ apiUrl: 'http://h:8080/', apiKey: 'k' }), { apiUrl: 'http://h:8080', apiKey: 'k' });
});

test('normalizeApiUrl keeps a path prefix, refuses other schemes', () => {
  assert.equal(normalizeApiUrl('https://pdf.example.org/imprint/'), 'https://pdf.example.org/imprint');
  assert.throws(() => normalizeApiUrl('ftp://x'), /http/);
  assert.throws(() => normalizeApiUrl('localhost:8080'), /http/);
});

test('parseDuration', () => {
  assert.equal(parseDuration('24h', 'x'), 86_400_000);
  assert.equal(parseDuration('90s', 'x'), 90_000);
  assert.equal(parseDuration('1.5m', 'x'), 90_000);
  assert.equal(parseDuration('7d', 'x'), 604_800_000);
  assert.equal(parseDuration('250', 'x'), 250);
  for (const bad of ['0s', '-1h', 'soon', '1w', '']) assert.throws(() => parseDuration(bad, '--url-ttl'), /--url-ttl/);
});

test('downloadUrl keeps the public URL\'s path prefix', () => {
  assert.equal(downloadUrl('http://127.0.0.1:8080', 'tok'), 'http://127.0.0.1:8080/api/files/tok');
  assert.equal(downloadUrl('https://x.org/imprint', 'tok'), 'https://x.org/imprint/api/files/tok');
});

describe('explainRemoteError', () => {
  const url = 'http://api';
  const api = (status: number, message: string) => explainRemoteError(new ApiError(status, message, 'POST', `${url}/x`), url) as ImprintError;
  test('401 says how to log in', () => {
    const error = api(401, 'Unknown or revoked API key.');
    assert.equal(error.code, 'UNAUTHORIZED');
    assert.match(error.message, /imprint login/);
  });
  test('404 points at imprint list', () => assert.match(api(404, 'No template "x".').message, /imprint list/));
  test('422 is the limit', () => {
    const error = api(422, 'Team "a" has used all 10 generations');
    assert.equal(error.code, 'LIMIT_EXCEEDED');
    assert.match(error.message, /limit.*10 generations/i);
  });
  test('5xx carries the server message', () => assert.match(api(503, 'browser down').message, /HTTP 503.*browser down/));
  test('400 is the server message as is', () => assert.equal(api(400, 'Invalid size "x".').message, 'Invalid size "x".'));
  test('unreachable names the URL', () => {
    const error = explainRemoteError(new ApiUnreachableError(`${url}/api/me`, 'connection refused'), url) as ImprintError;
    assert.equal(error.code, 'REMOTE_UNREACHABLE');
    assert.match(error.message, /http:\/\/api.*connection refused/);
  });
  test('the answer\'s code decides the error and its exit code; the status only when the code is missing or unknown', () => {
    const coded = (status: number, code: string | undefined, message = 'said.') =>
      explainRemoteError(new ApiError(status, message, 'POST', `${url}/x`, { code }), url) as ImprintError;
    for (const [status, code] of [[500, 'RENDER_FAILED'], [507, 'STORAGE_FULL'], [503, 'DRAINING'], [404, 'ROUTE_NOT_FOUND'], [408, 'REQUEST_TIMEOUT'], [403, 'URL_DENIED']] as const) {
      const error = coded(status, code);
      assert.equal(error.code, code);
      assert.equal(error.exitCode, 1);
    }
    // A code this version does not know, or one that never goes on the wire, is read as its status.
    assert.equal(coded(409, 'SOMETHING_NEWER').code, 'INVALID_INPUT');
    assert.equal(coded(502, 'SOMETHING_NEWER').code, 'INTERNAL');
    const usage = coded(400, 'USAGE');
    assert.equal(usage.code, 'INVALID_INPUT');
    assert.equal(usage.exitCode, 1, 'exit 2 is for the CLI\'s own usage errors, not a service\'s answer');
    assert.equal(coded(404, undefined, 'Not Found').code, 'NOT_FOUND');
    assert.match(coded(404, undefined, 'Not Found').message, /imprint list/);
  });
  test('anything else passes through', () => {
    const other = new Error('bug');
    assert.equal(explainRemoteError(other, url), other);
  });
});
