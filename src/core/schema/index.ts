/** Typed props: a JSON Schema read from a template's TypeScript types, and the check against it. */
export { derivePropsSchema, derivePropsSchemaWithInputs, type DerivedSchema, type DerivedWithInputs } from './derive-props-schema.js';
export { formatPath, formatSchemaErrors } from './format-errors.js';
export { MAX_LISTED_ERRORS, propsErrors, validateProps } from './validate-props.js';
