/**
 * Typed props: the JSON Schema read from a template's TypeScript types (real files parsed by
 * the real TypeScript), and the check of props against it with the path-by-path message.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, test } from 'node:test';
import { ImprintError } from '../../../src/core/errors.js';
import { derivePropsSchema, formatPath, MAX_LISTED_ERRORS, propsErrors, validateProps } from '../../../src/core/schema/index.js';
import { ROOT } from '../../helpers/checkout.js';

const fixture = (name: string) => path.join(ROOT, 'test', 'fixtures', 'schema', name);

function schemaOf(name: string): Record<string, any> {
  const derived = derivePropsSchema(fixture(name));
  assert.equal(derived.kind, 'schema', derived.kind === 'none' ? derived.reason : '');
  return (derived as { schema: Record<string, any> }).schema;
}

describe('formatPath', () => {
  const cases: [string, string][] = [
    ['', 'props'],
    ['/customer', 'customer'],
    ['/services/2/rate', 'services[2].rate'],
    ['/0', '[0]'],
    ['/odd key/x', '["odd key"].x'],
    ['/a~1b', '["a/b"]'],
  ];
  for (const [pointer, expected] of cases) test(`${JSON.stringify(pointer)} -> ${expected}`, () => assert.equal(formatPath(pointer), expected));
});

describe('derivePropsSchema', () => {
  test('an interface, with a type imported from another file, JSDoc, optional and nullable members', () => {
    const schema = schemaOf('Interface.tsx');
    assert.equal(schema.type, 'object');
    assert.deepEqual([...schema.required].sort(), ['customer', 'notes', 'services']);
    assert.equal(schema.properties.customer.type, 'string');
    assert.equal(schema.properties.customer.description, "The customer's name.");
    assert.equal(schema.properties.discount.type, 'number');
    const service = schema.properties.services.items;
    assert.equal(service.properties.rate.type, 'number');
    assert.deepEqual(service.properties.kind.enum, ['design', 'build']);
  });

  test('an inline type literal on a destructured parameter', () => {
    const schema = schemaOf('InlineLiteral.tsx');
    assert.deepEqual(Object.keys(schema.properties).sort(), ['count', 'title']);
    assert.equal(schema.properties.count.type, 'number');
  });

  test('a const arrow function typed FC<Props>, exported by name', () => {
    const schema = schemaOf('ArrowAlias.tsx');
    assert.deepEqual([...schema.required].sort(), ['heading', 'tags']);
    assert.equal(schema.properties.tags.type, 'array');
  });

  test('a function-typed prop is left out: it cannot come from JSON', () => {
    const schema = schemaOf('WithCallback.tsx');
    assert.deepEqual(Object.keys(schema.properties), ['label']);
  });

  for (const [name, reason] of [
    ['Untyped.jsx', /no typed props/],
    ['AnyProps.tsx', /no typed props/],
    ['NoSuchFile.tsx', /could not read/],
  ] as const) {
    test(`${name}: no schema, and why`, () => {
      const derived = derivePropsSchema(fixture(name));
      assert.equal(derived.kind, 'none');
      assert.match((derived as { reason: string }).reason, reason);
    });
  }
});

describe('validateProps', () => {
  const schema = schemaOf('Interface.tsx');
  const valid = {
    customer: 'ACME',
    services: [
      { name: 'Logo', rate: 90, kind: 'design' },
      { name: 'Site', rate: 110, kind: 'build' },
      { name: 'Print', rate: 70, kind: 'design' },
    ],
    notes: null,
  };

  test('matching props pass, extra members included', () => {
    assert.doesNotThrow(() => validateProps(schema, { ...valid, unknownExtra: true }));
  });

  test('each wrong path is named, the way it is written in code', () => {
    const props = structuredClone(valid) as any;
    props.services[2].rate = '12';
    props.services[0].kind = 'paint';
    delete props.customer;
    props.notes = 5;
    let error: unknown;
    try {
      validateProps(schema, props, 'The props of template "quote"');
    } catch (caught) {
      error = caught;
    }
    assert.ok(error instanceof ImprintError);
    assert.equal(error.code, 'INVALID_INPUT');
    assert.equal(error.httpStatus, 400);
    assert.match(error.message, /^The props of template "quote" do not match the template's props type \(4 errors\)/);
    assert.ok(error.message.includes('services[2].rate: expected number, got "12"'), error.message);
    assert.ok(error.message.includes('services[0].kind: expected one of "design", "build", got "paint"'), error.message);
    assert.ok(error.message.includes('customer: required, but missing'), error.message);
    assert.ok(error.message.includes('notes: expected string or null, got 5'), error.message);
  });

  test('objects and arrays are described by kind, not dumped', () => {
    assert.deepEqual(propsErrors(schema, { ...valid, customer: { first: 'A' }, services: 'none' }), [
      'customer: expected string, got an object',
      'services: expected array, got "none"',
    ]);
  });

  test(`past ${MAX_LISTED_ERRORS} errors the message counts the rest and the details list all`, () => {
    const services = Array.from({ length: 14 }, () => ({ name: 'x', rate: 'free', kind: 'design' }));
    const error = (() => {
      try {
        validateProps(schema, { ...valid, services });
      } catch (caught) {
        return caught as ImprintError;
      }
      throw new Error('expected a failure');
    })();
    assert.match(error.message, /\(14 errors\).*; and 4 more\.$/);
    assert.equal(error.details?.split('\n').length, 14);
  });

  test('a schema that is not valid JSON Schema is reported as such', () => {
    assert.throws(() => validateProps({ type: 'no-such-type' }, {}), /not a valid JSON Schema/);
  });
});

describe('formats', () => {
  const schema = schemaOf('Formats.tsx');
  const valid = { due: '2026-01-31', sentAt: '2026-01-31T09:30:00Z', contact: 'billing@example.com', payLink: 'https://example.com/pay/7', issued: '2026-01-02T00:00:00.000Z' };

  /** What the check writes to stderr while it runs (Ajv warns there of a format it does not know). */
  function stderrOf(run: () => void): string {
    const written: string[] = [];
    const write = process.stderr.write;
    process.stderr.write = ((chunk: string | Uint8Array) => (written.push(String(chunk)), true)) as typeof process.stderr.write;
    const warn = console.warn;
    console.warn = (...args: unknown[]) => void written.push(args.join(' '));
    try {
      run();
    } finally {
      process.stderr.write = write;
      console.warn = warn;
    }
    return written.join('');
  }

  test('the schema carries the formats of the JSDoc tags and of Date', () => {
    assert.equal(schema.properties.due.format, 'date');
    assert.equal(schema.properties.sentAt.format, 'date-time');
    assert.equal(schema.properties.contact.format, 'email');
    assert.equal(schema.properties.payLink.format, 'uri');
    assert.equal(schema.properties.issued.format, 'date-time');
  });

  test('values in their format pass, without a word on stderr', () => {
    let errors: string[] = [];
    assert.equal(stderrOf(() => (errors = propsErrors(schema, valid))), '');
    assert.deepEqual(errors, []);
  });

  test('a value out of its format fails with its path named', () => {
    let errors: string[] = [];
    const output = stderrOf(() => (errors = propsErrors(schema, { ...valid, due: '2026-02-30', sentAt: '31/01/2026 9:30', contact: 'billing at example', payLink: 'example.com/pay', issued: 'yesterday' })));
    assert.equal(output, '');
    assert.deepEqual(errors, [
      'due: expected a date (YYYY-MM-DD), got "2026-02-30"',
      'sentAt: expected a date and time (YYYY-MM-DDTHH:MM:SSZ), got "31/01/2026 9:30"',
      'contact: expected an email address, got "billing at example"',
      'payLink: expected an absolute URI, got "example.com/pay"',
      'issued: expected a date and time (YYYY-MM-DDTHH:MM:SSZ), got "yesterday"',
    ]);
    assert.throws(() => validateProps(schema, { ...valid, due: '2026-13-01' }), /due: expected a date \(YYYY-MM-DD\), got "2026-13-01"/);
  });
});
