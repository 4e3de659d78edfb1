/**
 * The try-it form's validator for react-jsonschema-form, without Ajv: Ajv compiles schemas
 * with `new Function`, which the dashboard's Content-Security-Policy forbids. The form needs
 * a validator only to pick the matching branch of anyOf/oneOf; the props themselves are
 * checked by the service when the template renders (a 400 names each wrong path), so this
 * one answers that question by the schema's own words (type, const, enum, required, nested
 * properties and items) and reports no errors of its own.
 */
import type { RJSFSchema, ValidatorType } from '@rjsf/utils';

type Schema = RJSFSchema | boolean | undefined;

function resolve(schema: Schema, root: RJSFSchema): Schema {
  if (schema && typeof schema === 'object' && typeof schema.$ref === 'string' && schema.$ref.startsWith('#/')) {
    let target: unknown = root;
    for (const part of schema.$ref.slice(2).split('/')) target = (target as Record<string, unknown> | undefined)?.[part.replace(/~1/g, '/').replace(/~0/g, '~')];
    return target as Schema;
  }
  return schema;
}

const typeOf = (value: unknown) => (value === null ? 'null' : Array.isArray(value) ? 'array' : Number.isInteger(value) ? 'integer' : typeof value);

function matches(given: Schema, value: unknown, root: RJSFSchema, depth = 0): boolean {
  const schema = resolve(given, root);
  if (schema === undefined || schema === true) return true;
  if (schema === false) return false;
  if (depth > 32) return true;
  if (value === undefined) return true;
  if (schema.const !== undefined && JSON.stringify(schema.const) !== JSON.stringify(value)) return false;
  if (schema.enum && !schema.enum.some((option) => JSON.stringify(option) === JSON.stringify(value))) return false;
  if (schema.type) {
    const types = Array.isArray(schema.type) ? schema.type : [schema.type];
    const actual = typeOf(value);
    if (!types.some((type) => type === actual || (type === 'number' && actual === 'integer'))) return false;
  }
  if (schema.allOf && !schema.allOf.every((part) => matches(part as Schema, value, root, depth + 1))) return false;
  if (schema.anyOf && !schema.anyOf.some((part) => matches(part as Schema, value, root, depth + 1))) return false;
  if (schema.oneOf && !schema.oneOf.some((part) => matches(part as Schema, value, root, depth + 1))) return false;
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    const record = value as Record<string, unknown>;
    if (schema.required?.some((name) => !(name in record))) return false;
    for (const [name, property] of Object.entries(schema.properties ?? {})) {
      if (!matches(property as Schema, record[name], root, depth + 1)) return false;
    }
  }
  if (Array.isArray(value) && schema.items && !Array.isArray(schema.items)) {
    if (!value.every((item) => matches(schema.items as Schema, item, root, depth + 1))) return false;
  }
  return true;
}

export const schemaValidator: ValidatorType = {
  validateFormData: () => ({ errors: [], errorSchema: {} }),
  isValid: (schema, formData, rootSchema) => matches(schema, formData, rootSchema),
  rawValidation: () => ({ errors: [] }),
};
