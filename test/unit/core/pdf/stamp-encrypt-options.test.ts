/** The parsers of the request's `stamp` and `encrypt` fields, the stamp's page selection and placement, and a job spec's secrets erased. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { DEFAULT_PERMISSIONS, parseEncrypt, parsePermissions } from '../../../../src/core/pdf/encrypt-options.js';
import { securityPermissions } from '../../../../src/core/pdf/encrypt-pdf.js';
import { chosenStamp, parseStamp } from '../../../../src/core/pdf/stamp-options.js';
import { parseStampPages, stampPageIndexes } from '../../../../src/core/pdf/stamp-pages.js';
import { placeStamp } from '../../../../src/core/pdf/stamp-pdf.js';
import { parseRenderOptions } from '../../../../src/core/render-request.js';
import { SPEC_WITHOUT_SECRETS_SQL } from '../../../../src/core/store/job-records.js';
import { openSqlite } from '../../../../src/core/sqlite-driver.js';
import { ImprintError } from '../../../../src/core/errors.js';

const refused = (work: () => unknown, message: RegExp, code = 'USAGE') =>
  assert.throws(work, (error: unknown) => error instanceof ImprintError && error.code === code && message.test(error.message));

describe('stamp pages', () => {
  test('all, first, last, pages, ranges and open ranges against the page count', () => {
    assert.deepEqual(stampPageIndexes(parseStampPages('all'), 3), [0, 1, 2]);
    assert.deepEqual(stampPageIndexes(parseStampPages('FIRST'), 3), [0]);
    assert.deepEqual(stampPageIndexes(parseStampPages('last'), 3), [2]);
    assert.deepEqual(stampPageIndexes(parseStampPages('1-2'), 5), [0, 1]);
    assert.deepEqual(stampPageIndexes(parseStampPages(' 4, 1-2 ,2'), 5), [0, 1, 3]);
    assert.deepEqual(stampPageIndexes(parseStampPages('3-'), 5), [2, 3, 4]);
  });

  test('what names no page is refused as written; a page past the end once the count is known', () => {
    for (const bad of ['', '0', '3-1', 'odd', '1,,2', '-2', 1]) refused(() => parseStampPages(bad), /Invalid stamp pages/);
    refused(() => stampPageIndexes('2-4', 3), /name page 4, but the document has 3 pages/, 'INVALID_INPUT');
    refused(() => stampPageIndexes('5-', 3), /name page 5/, 'INVALID_INPUT');
  });
});

describe('parseStamp', () => {
  test('a text alone, or one kind with its placement; defaults for the rest', () => {
    assert.deepEqual(parseStamp('DRAFT'), { content: { text: 'DRAFT' }, pages: 'all', position: 'center', opacity: 0.5, rotate: 0 });
    assert.deepEqual(parseStamp({ svg: '<svg width="1" height="1"/>', pages: 'last', position: 'bottom-left', opacity: 1, rotate: 'diagonal' }), {
      content: { svg: '<svg width="1" height="1"/>' },
      pages: 'last',
      position: 'bottom-left',
      opacity: 1,
      rotate: 'diagonal',
    });
    const pdf = Buffer.from('%PDF-1.7 ...').toString('base64');
    assert.deepEqual(parseStamp({ pdf, rotate: -30 }).content, { pdf });
  });

  test('refuses two kinds, none, unknown fields, bad placement and non-PDF bytes, naming the field', () => {
    refused(() => parseStamp({ text: 'A', svg: '<svg/>' }), /exactly one of text, pdf/);
    refused(() => parseStamp({ pages: 'all' }), /exactly one of text, pdf/);
    refused(() => parseStamp({ text: 'A', colour: 'red' }), /Unknown field stamp.colour/);
    refused(() => parseStamp({ text: 'A', opacity: 0 }), /stamp.opacity 0/);
    refused(() => parseStamp({ text: 'A', opacity: 1.5 }), /stamp.opacity/);
    refused(() => parseStamp({ text: 'A', rotate: 720 }), /stamp.rotate 720/);
    refused(() => parseStamp({ text: 'A', position: 'middle' }), /use one of center, top-left/);
    refused(() => parseStamp({ pdf: Buffer.from('not a pdf').toString('base64') }), /not a PDF/);
    refused(() => parseStamp({ svg: 'hello' }), /stamp.svg/);
    refused(() => parseStamp({ text: 'x'.repeat(201) }), /1 to 200 characters/);
  });

  test("the request's stamp wins; a template's is read as RENDER_FAILED when wrong; none when it gives none", () => {
    const requested = parseStamp('VOID');
    assert.equal(chosenStamp(requested, 'COPY'), requested);
    assert.deepEqual(chosenStamp(undefined, { text: 'COPY', position: 'top-right' })?.position, 'top-right');
    assert.equal(chosenStamp(undefined, null), undefined);
    assert.equal(chosenStamp(undefined, undefined), undefined);
    refused(() => chosenStamp(undefined, { text: 'COPY', pages: 'odd' }), /Invalid the template's stamp.pages/, 'RENDER_FAILED');
  });
});

describe('placeStamp', () => {
  const page = { width: 600, height: 800 };
  test('centred unrotated: the box in the middle at the size asked', () => {
    assert.deepEqual(placeStamp(page, { width: 100, height: 50 }, 'center', 0, 1), { x: 250, y: 375, scale: 1, degrees: 0 });
  });

  test('a corner: 36 pt from both edges; too large: shrunk to fit inside the margins', () => {
    assert.deepEqual(placeStamp(page, { width: 100, height: 50 }, 'top-right', 0, 1), { x: 464, y: 714, scale: 1, degrees: 0 });
    const shrunk = placeStamp(page, { width: 1056, height: 100 }, 'bottom-left', 0, 1);
    assert.equal(shrunk.scale, 0.5);
    assert.deepEqual([shrunk.x, shrunk.y], [36, 36]);
  });

  test('rotated 90 degrees about its corner: its outline still centred', () => {
    const at = placeStamp(page, { width: 100, height: 50 }, 'center', 90, 1);
    // Turned 90 degrees about (x, y), the box spans x - 50..x and y..y + 100: centred, x = 325, y = 350.
    assert.ok(Math.abs(at.x - 325) < 1e-9 && Math.abs(at.y - 350) < 1e-9, JSON.stringify(at));
  });
});

describe('parseEncrypt', () => {
  test('passwords and permissions; unnamed permissions keep their defaults', () => {
    assert.deepEqual(parseEncrypt({ userPassword: 'u', ownerPassword: 'o' }), { userPassword: 'u', ownerPassword: 'o', permissions: DEFAULT_PERMISSIONS });
    assert.deepEqual(parseEncrypt({ ownerPassword: 'o', permissions: { print: 'none', copy: false, annotate: 'yes' } }).permissions, { print: 'none', modify: 'none', copy: false, annotate: true });
    assert.deepEqual(parsePermissions('print=low, modify=assembly,copy=no'), { print: 'low', modify: 'assembly', copy: false, annotate: false });
  });

  test('refuses no password, equal passwords, unknown permissions and values, overlong or unprintable passwords', () => {
    refused(() => parseEncrypt({}), /give a userPassword/);
    refused(() => parseEncrypt({ userPassword: 'a', ownerPassword: 'a' }), /are the same/);
    refused(() => parseEncrypt({ userPassword: 'a', permissions: { printing: 'low' } }), /Unknown permission "printing"/);
    refused(() => parseEncrypt({ userPassword: 'a', permissions: 'print' }), /write name=value pairs/);
    refused(() => parseEncrypt({ userPassword: 'a', permissions: { modify: 'some' } }), /modify=none\|forms\|assembly\|all/);
    refused(() => parseEncrypt({ userPassword: 'é'.repeat(64) }), /longer than 127 bytes/);
    refused(() => parseEncrypt({ userPassword: 'a\nb' }), /control character/);
    refused(() => parseEncrypt({ userPassword: 'a', salt: 'x' }), /Unknown field encrypt.salt/);
  });

  test("an error never quotes a password", () => {
    for (const body of [{ userPassword: 'secret-1\u0001' }, { userPassword: 'secret-1'.repeat(20) }, { userPassword: 'secret-1', ownerPassword: 'secret-1' }]) {
      assert.throws(() => parseEncrypt(body), (error: Error) => !error.message.includes('secret-1'));
    }
  });

  test('the permission bits: accessibility always allowed; modify levels widen', () => {
    assert.deepEqual(securityPermissions({ print: 'low', modify: 'none', copy: false, annotate: false }), {
      printing: 'lowResolution',
      modifying: false,
      fillingForms: false,
      documentAssembly: false,
      copying: false,
      annotating: false,
      contentAccessibility: true,
    });
    assert.deepEqual(
      (['forms', 'assembly', 'all'] as const).map((modify) => {
        const bits = securityPermissions({ ...DEFAULT_PERMISSIONS, modify });
        return [bits.fillingForms, bits.documentAssembly, bits.modifying];
      }),
      [
        [true, false, false],
        [true, true, false],
        [true, true, true],
      ],
    );
  });

  test('with pdfa or einvoice a render request is refused (PDF/A forbids encryption)', () => {
    refused(() => parseRenderOptions({ encrypt: { userPassword: 'u' }, pdfa: '3b' }), /PDF\/A-3b cannot be encrypted/);
    refused(() => parseRenderOptions({ encrypt: { userPassword: 'u' }, einvoice: 'factur-x' }), /An e-invoice \(a PDF\/A-3b\) cannot be encrypted/);
    assert.equal(parseRenderOptions({ encrypt: { userPassword: 'u' } }).encrypt?.userPassword, 'u');
  });
});

describe('SPEC_WITHOUT_SECRETS_SQL', () => {
  test("erases the passwords and keeps the rest; a spec without any stays the same text (SQLite's json_remove)", () => {
    const db = openSqlite(':memory:');
    const specWithoutSecrets = (spec: string) => (db.prepare<[string], { spec: string }>(`SELECT ${SPEC_WITHOUT_SECRETS_SQL.sqlite} AS spec FROM (SELECT ? AS spec)`).get(spec))!.spec;
    try {
      const spec = JSON.stringify({ kind: 'generate', options: { format: 'pdf', encrypt: { userPassword: 'u', ownerPassword: 'o', permissions: DEFAULT_PERMISSIONS } }, name: 'x' });
      assert.deepEqual(JSON.parse(specWithoutSecrets(spec)), { kind: 'generate', options: { format: 'pdf', encrypt: { permissions: DEFAULT_PERMISSIONS } }, name: 'x' });
      const plain = '{"kind":"generate","options":{"format":"pdf"}}';
      assert.equal(specWithoutSecrets(plain), plain);
    } finally {
      db.close();
    }
  });
});
