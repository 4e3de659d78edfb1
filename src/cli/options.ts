/**
 * The flags render and generate share, parsed by the core's own rules (the ones the server
 * applies to request bodies) and reported by commander as usage errors (exit 2).
 */
import { Command, InvalidArgumentError, Option } from 'commander';
import { isImprintError } from '../core/errors.js';
import { OUTPUT_FORMATS, parseFormat } from '../core/render-request.js';
import { checkDocumentSize, parseOrientation, SIZE_HELP } from '../core/page-size.js';

function viaCore<T>(parse: (value: string) => T) {
  return (value: string): T => {
    try {
      return parse(value);
    } catch (error) {
      if (isImprintError(error)) throw new InvalidArgumentError(error.message);
      throw error;
    }
  };
}

export interface OutputFlags {
  format: ReturnType<typeof parseFormat>;
  size?: ReturnType<typeof checkDocumentSize>;
  orientation?: ReturnType<typeof parseOrientation>;
  output?: string;
}

export function addOutputOptions(command: Command): Command {
  return command
    .addOption(new Option('-f, --format <format>', 'what to print: the PDF, {"data": base64} or {"url": ...}').choices(OUTPUT_FORMATS).default('pdf').argParser(viaCore(parseFormat)))
    .addOption(new Option('-s, --size <size>', `page size (default: the template's CSS @page size, else A4). ${SIZE_HELP}`).argParser(viaCore(checkDocumentSize)))
    .addOption(new Option('--orientation <orientation>', 'page orientation').choices(['portrait', 'landscape']).argParser(viaCore(parseOrientation)))
    .option('-o, --output <file|->', 'where to write the result; "-" for stdout (default: stdout when piped, else <name>.pdf)');
}
