/**
 * Finds what `imprint check --einvoice` validates with: xmllint (libxml2-utils), Java and the
 * Saxon-HE jar (libsaxonhe-java), and the official artefacts shipped with Imprint. Each can be
 * named by a variable (IMPRINT_XMLLINT, IMPRINT_JAVA or JAVA_HOME, IMPRINT_SAXON_JAR); a missing
 * one is an error that says how to install it, never a check that passes without running.
 */
import fs from 'node:fs';
import path from 'node:path';
import { ImprintError } from '../core/errors.js';
import { einvoiceRulesDir } from './einvoice-rules.js';
import type { ValidationTools } from '../core/einvoice/validate/run-validation.js';

const SAXON_JARS = ['/usr/share/java/Saxon-HE.jar', '/usr/share/java/saxon9he.jar', '/usr/share/java/saxon.jar'];

function onPath(name: string, env: NodeJS.ProcessEnv): string | undefined {
  for (const dir of (env.PATH ?? '').split(path.delimiter)) {
    const candidate = path.join(dir, name);
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      return candidate;
    } catch {
      // not in this folder: the next one
    }
  }
  return undefined;
}


export function findValidationTools(env: NodeJS.ProcessEnv = process.env): ValidationTools {
  const missing: string[] = [];
  const xmllint = env.IMPRINT_XMLLINT || onPath('xmllint', env);
  if (!xmllint) missing.push('xmllint (Debian/Ubuntu: apt-get install libxml2-utils; macOS has it), or set IMPRINT_XMLLINT');
  const java = env.IMPRINT_JAVA || (env.JAVA_HOME ? path.join(env.JAVA_HOME, 'bin', 'java') : undefined) || onPath('java', env);
  if (!java) missing.push('Java 11 or later (apt-get install default-jre-headless), or set JAVA_HOME / IMPRINT_JAVA');
  const saxonJar = env.IMPRINT_SAXON_JAR || SAXON_JARS.find((jar) => fs.existsSync(jar));
  if (!saxonJar) missing.push('Saxon-HE (apt-get install libsaxonhe-java, or download Saxon-HE and set IMPRINT_SAXON_JAR=/path/to/saxon-he.jar)');
  if (missing.length > 0) {
    throw new ImprintError('USAGE', `imprint check --einvoice runs the official EN 16931 validation artefacts (XSD and Schematron), which need tools Imprint does not ship. Missing: ${missing.join('; ')}.`);
  }
  const rulesDir = einvoiceRulesDir();
  if (!fs.existsSync(path.join(rulesDir, 'en16931'))) throw new ImprintError('INTERNAL', `The e-invoice validation artefacts are missing from ${rulesDir}: reinstall imprint.`);
  return { xmllint: xmllint!, java: java!, saxonJar: saxonJar!, rulesDir };
}
