/**
 * The `<Field>`s a page reported (runtime/form-fields.ts), checked: the page runs the template,
 * so nothing it sends is trusted. A wrong field is the template's error (RENDER_FAILED, naming
 * the field), found before the PDF is touched.
 */
import { ImprintError } from '../../errors.js';
import { FIELD_LINK_ORIGIN } from '../../../runtime/page-protocol.js';

export const FIELD_TYPES = ['text', 'multiline', 'checkbox', 'radio', 'select', 'date'] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

export interface FieldSpec {
  name: string;
  type: FieldType;
  /** The box's link: how its rectangles are found in the PDF (field-links.ts). */
  link: string;
  label?: string;
  required: boolean;
  readOnly: boolean;
  fontSize?: number;
  /** Text, date and select: the value shown; radio: this button's option. */
  value?: string;
  checked: boolean;
  options?: string[];
  maxLength?: number;
  format?: string;
}

const fail = (message: string) => new ImprintError('RENDER_FAILED', message);

/** A partial name of a PDF field holds no dot (dots join them) and is not empty. */
function checkName(name: unknown): string {
  if (typeof name !== 'string' || name.split('.').some((part) => part === '')) {
    throw fail(`A <Field> has the name ${JSON.stringify(name)}: give each field a name such as "email" or "customer.email" (dots make a hierarchy, so no empty part).`);
  }
  return name;
}

function optionalString(name: string, key: string, value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw fail(`The <Field name="${name}"> has ${key} ${JSON.stringify(value)}: expected a string.`);
  return value;
}

function optionalNumber(name: string, key: string, value: unknown): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) throw fail(`The <Field name="${name}"> has ${key} ${JSON.stringify(value)}: expected a positive number.`);
  return value;
}

function parseField(raw: unknown): FieldSpec {
  if (raw === null || typeof raw !== 'object') throw fail('The page reported a form field that is not an object.');
  const given = raw as Record<string, unknown>;
  const name = checkName(given.name);
  if (!(FIELD_TYPES as readonly unknown[]).includes(given.type)) throw fail(`The <Field name="${name}"> has type ${JSON.stringify(given.type)}: use one of ${FIELD_TYPES.join(', ')}.`);
  const type = given.type as FieldType;
  if (typeof given.link !== 'string' || !given.link.startsWith(FIELD_LINK_ORIGIN)) throw fail(`The <Field name="${name}"> lost its box's link.`);
  const spec: FieldSpec = { name, type, link: given.link, required: given.required === true, readOnly: given.readOnly === true, checked: given.checked === true };
  spec.label = optionalString(name, 'label', given.label);
  spec.value = optionalString(name, 'value', given.value);
  spec.format = optionalString(name, 'format', given.format);
  spec.fontSize = optionalNumber(name, 'fontSize', given.fontSize);
  spec.maxLength = optionalNumber(name, 'maxLength', given.maxLength);
  if (type === 'radio' && !spec.value) throw fail(`The radio <Field name="${name}"> has no value: give each button of the group its option, e.g. value="card".`);
  if (type === 'select') {
    if (!Array.isArray(given.options) || given.options.length === 0 || !given.options.every((option) => typeof option === 'string')) {
      throw fail(`The select <Field name="${name}"> needs options, a list of strings such as ["Card", "Invoice"].`);
    }
    spec.options = given.options as string[];
    if (spec.value !== undefined && !spec.options.includes(spec.value)) throw fail(`The select <Field name="${name}"> has value ${JSON.stringify(spec.value)}, which is not one of its options (${spec.options.join(', ')}).`);
  }
  return spec;
}

/** The page's list, checked; fields sharing a name must be one radio group. */
export function parseFieldSpecs(raw: unknown): FieldSpec[] {
  if (raw === undefined) return [];
  if (!Array.isArray(raw)) throw fail('The page reported its form fields in a shape Imprint does not know.');
  const fields = raw.map(parseField);
  const byName = new Map<string, FieldSpec>();
  for (const field of fields) {
    const other = byName.get(field.name);
    if (other && (other.type !== 'radio' || field.type !== 'radio')) {
      throw fail(`Two <Field>s are named "${field.name}" (${other.type} and ${field.type}): only the buttons of one radio group share a name; rename one.`);
    }
    byName.set(field.name, field);
  }
  // A PDF field is a leaf or a branch: "customer" cannot hold a value and "customer.email" too.
  for (const name of byName.keys()) {
    const branch = name.split('.').slice(0, -1).map((_, i, parts) => parts.slice(0, i + 1).join('.')).find((prefix) => byName.has(prefix));
    if (branch) throw fail(`The <Field>s "${branch}" and "${name}" clash: dots make a hierarchy, so "${branch}" is a group of fields and cannot be a field itself; rename one (e.g. "${branch}.value").`);
  }
  return fields;
}
