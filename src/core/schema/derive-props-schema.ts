/**
 * A JSON Schema of a template's props, read from its TypeScript types by
 * ts-json-schema-generator: the type of the default export's first parameter, with the
 * JSDoc comments as descriptions. The template is parsed, never run.
 *
 * Extra properties are allowed (a caller may send more than the template reads); missing
 * required ones and wrong types are not.
 */
import path from 'node:path';
import type * as TS from 'typescript';
import type { Config } from 'ts-json-schema-generator';
import { compilerOptionsFor, createCachingHost } from './compiler-setup.js';
import { findPropsTypeNode } from './find-props-type.js';
import { loadSchemaGenerator, loadTypescript } from './load-lazily.js';

export type DerivedSchema =
  | { kind: 'schema'; schema: object }
  /** The template declares no props type (or one that is not an object): props are not checked. */
  | { kind: 'none'; reason: string };

export interface DerivedWithInputs {
  derived: DerivedSchema;
  /**
   * The files TypeScript read for it (its own lib files left out): a type-only import is not in
   * the bundle, so the local template cache (backend/template-cache) fingerprints these too.
   */
  inputs: string[];
}

const generatorConfig = () => ({
  ...loadSchemaGenerator().DEFAULT_CONFIG,
  jsDoc: 'extended',
  additionalProperties: true,
  skipTypeCheck: true,
  topRef: false,
  expose: 'none',
  // A function-typed prop (a callback) cannot come from JSON: it is left out of the schema.
  functions: 'hide',
} satisfies Config);

function isObjectSchema(schema: Record<string, unknown>): boolean {
  return schema.type === 'object' || (schema.type === undefined && typeof schema.properties === 'object');
}

function createDeriver() {
  const host = createCachingHost();
  let previous: TS.Program | undefined;

  return function derivePropsSchema(templateFile: string): DerivedWithInputs {
    const file = path.resolve(templateFile);
    const options = compilerOptionsFor(file);
    const program = loadTypescript().createProgram({ rootNames: [file], options, host: host(options), oldProgram: previous });
    previous = program;
    const inputs = program.getSourceFiles().filter((source) => !program.isSourceFileDefaultLibrary(source)).map((source) => path.resolve(source.fileName));
    return { derived: deriveFrom(program, file, templateFile), inputs };
  };
}

/** The props type of the template's default export, as a JSON Schema. */
function deriveFrom(program: TS.Program, file: string, templateFile: string): DerivedSchema {
  const sourceFile = program.getSourceFile(file);
  if (!sourceFile) return { kind: 'none', reason: `TypeScript could not read ${templateFile}` };
  const typeNode = findPropsTypeNode(sourceFile, program.getTypeChecker());
  if (!typeNode) return { kind: 'none', reason: 'the default export has no typed props parameter' };

  let schema: Record<string, unknown>;
  try {
    const { SchemaGenerator, createFormatter, createParser } = loadSchemaGenerator();
    const config = generatorConfig();
    const generator = new SchemaGenerator(program, createParser(program, config), createFormatter(config), config);
    schema = generator.createSchemaFromNodes([typeNode]) as Record<string, unknown>;
  } catch (error) {
    // A type the generator cannot express is the author's to simplify; the message names it.
    return { kind: 'none', reason: `its props type cannot be turned into a JSON Schema: ${(error as Error).message.split('\n')[0]}` };
  }
  if (!isObjectSchema(schema)) return { kind: 'none', reason: 'its props type is not an object type' };
  return { kind: 'schema', schema };
}

let shared: ReturnType<typeof createDeriver> | undefined;

/** The schema with the files it was read from. One deriver per process: its cache of parsed library files is shared by every call. */
export function derivePropsSchemaWithInputs(templateFile: string): DerivedWithInputs {
  shared ??= createDeriver();
  return shared(templateFile);
}

export const derivePropsSchema = (templateFile: string): DerivedSchema => derivePropsSchemaWithInputs(templateFile).derived;
