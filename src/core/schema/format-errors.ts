/**
 * Ajv's errors as a person reads them: one line per wrong value, named by its path in the
 * props the way it is written in code (`services[2].rate: expected number, got "12"`).
 */
import type { ErrorObject } from 'ajv';

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/** `/services/2/rate` -> `services[2].rate`; the props object itself is `props`. */
export function formatPath(instancePath: string): string {
  if (!instancePath) return 'props';
  const segments = instancePath
    .slice(1)
    .split('/')
    .map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'));
  let out = '';
  for (const segment of segments) {
    if (/^\d+$/.test(segment)) out += `[${segment}]`;
    else if (IDENTIFIER.test(segment)) out += out ? `.${segment}` : segment;
    else out += `[${JSON.stringify(segment)}]`;
  }
  return out;
}

const join = (parent: string, key: string) => formatPath(`${parent}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`);

/** A value as it appears in the message: short, and typed where the type is the point. */
export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 40 ? `${text.slice(0, 37)}...` : text;
}

/** How the common formats are named in a message; any other is named by its keyword. */
const FORMATS: Record<string, string> = {
  date: 'a date (YYYY-MM-DD)',
  'date-time': 'a date and time (YYYY-MM-DDTHH:MM:SSZ)',
  time: 'a time (HH:MM:SS with a zone)',
  email: 'an email address',
  uri: 'an absolute URI',
};

const list = (values: unknown[]) => values.map((value) => JSON.stringify(value)).join(', ');

function typesOf(schema: unknown): string | undefined {
  if (!schema || typeof schema !== 'object') return undefined;
  const s = schema as { type?: string | string[]; enum?: unknown[]; const?: unknown };
  if (s.type) return Array.isArray(s.type) ? s.type.join(' or ') : s.type;
  if (s.enum) return list(s.enum);
  if ('const' in s) return JSON.stringify(s.const);
  return undefined;
}

function describe(error: ErrorObject): string {
  const at = formatPath(error.instancePath);
  const got = `got ${describeValue(error.data)}`;
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return `${join(error.instancePath, String(params.missingProperty))}: required, but missing`;
    case 'type':
      return `${at}: expected ${String(params.type).split(',').join(' or ')}, ${got}`;
    case 'enum':
      return `${at}: expected one of ${list(params.allowedValues as unknown[])}, ${got}`;
    case 'format':
      return `${at}: expected ${FORMATS[String(params.format)] ?? `the format "${String(params.format)}"`}, ${got}`;
    case 'const':
      return `${at}: expected ${JSON.stringify(params.allowedValue)}, ${got}`;
    case 'additionalProperties':
      return `${join(error.instancePath, String(params.additionalProperty))}: not a known property`;
    case 'anyOf':
    case 'oneOf': {
      const branches = Array.isArray(error.schema) ? error.schema.map(typesOf).filter(Boolean) : [];
      return branches.length > 0 ? `${at}: expected ${branches.join(' or ')}, ${got}` : `${at}: matches none of the allowed shapes, ${got}`;
    }
    default:
      return `${at}: ${error.message ?? error.keyword}, ${got}`;
  }
}

/**
 * A union's own error says what was expected; the errors of its branches (one per branch
 * tried) would only repeat it less clearly, so they are dropped.
 */
function withoutBranchErrors(errors: ErrorObject[]): ErrorObject[] {
  const unions = errors.filter((error) => error.keyword === 'anyOf' || error.keyword === 'oneOf');
  return errors.filter(
    (error) => !unions.some((union) => union !== error && error.schemaPath.startsWith(`${union.schemaPath}/`)),
  );
}

export function formatSchemaErrors(errors: ErrorObject[]): string[] {
  return [...new Set(withoutBranchErrors(errors).map(describe))];
}
