/**
 * Runs the official artefacts (validation-plan.ts) on an XML document: the schema with
 * xmllint (libxml2), each Schematron (shipped compiled to XSLT 2.0) with Saxon-HE on Java.
 * Both are the tools the standards' own validators use; neither runs in Node, so the tools'
 * paths are handed in (the CLI finds them, validation-tools.ts) and a missing one is a clear
 * error rather than a check that silently passes.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ImprintError } from '../../errors.js';
import { refuseDoctype } from './refuse-doctype.js';
import { detectDocument, validationPlan, type DetectedDocument, type ValidationStep } from './validation-plan.js';

export interface ValidationTools {
  xmllint: string;
  java: string;
  saxonJar: string;
  /** The folder holding the artefacts (en16931/, facturx/, xrechnung/, peppol/). */
  rulesDir: string;
  /** Per step; a Schematron of a few MB takes Saxon seconds to compile. */
  timeoutMs?: number;
}

export interface ValidationFinding {
  /** The rule's id (BR-CO-15, BR-DE-15, PEPPOL-EN16931-R008) or "XSD" for a schema error. */
  rule: string;
  /** fatal and error fail the document; warning and information do not. */
  severity: 'fatal' | 'error' | 'warning' | 'information';
  message: string;
  /** The XPath (Schematron) or line (XSD) it concerns. */
  location?: string;
  step: string;
}

export interface ValidationReport {
  document: DetectedDocument;
  /** The steps that ran, in order. */
  steps: string[];
  /** The steps that did not run: the rules after a schema that refused the document (they would judge nonsense). */
  skipped: string[];
  findings: ValidationFinding[];
  /** No fatal or error finding. */
  valid: boolean;
}

function run(command: string, args: string[], timeoutMs: number): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    execFile(command, args, { timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error && typeof error.code !== 'number') {
        if (error.killed) reject(new ImprintError('INTERNAL', `${path.basename(command)} did not finish validating within ${Math.round(timeoutMs / 1000)} s.`));
        else reject(new ImprintError('INVALID_INPUT', `Could not run ${command}: ${error.message}`, { cause: error }));
        return;
      }
      resolve({ code: error ? Number(error.code) : 0, stdout, stderr });
    });
  });
}

const unescape = (text: string) => text.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&apos;/g, "'").replace(/&amp;/g, '&');
const attribute = (tag: string, name: string) => new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1];

/** The failed asserts and successful reports of an SVRL document (the Schematron's output). */
export function parseSvrl(svrl: string, step: string): ValidationFinding[] {
  const findings: ValidationFinding[] = [];
  const pattern = /<svrl:(failed-assert|successful-report)\b([^>]*)>([^]*?)<\/svrl:\1>/g;
  for (const match of svrl.matchAll(pattern)) {
    const tag = match[2]!;
    const text = unescape(/<svrl:text>([^]*?)<\/svrl:text>/.exec(match[3]!)?.[1] ?? '').replace(/\s+/g, ' ').trim();
    const flag = (attribute(tag, 'flag') ?? attribute(tag, 'role') ?? 'fatal').toLowerCase();
    const severity = flag === 'warning' || flag === 'warn' ? 'warning' : flag === 'information' || flag === 'info' ? 'information' : flag === 'error' ? 'error' : 'fatal';
    // CEN's rules put the id in the text ("[BR-CO-15]-..."), FeRD's and KoSIT's in the id attribute too.
    const id = /^\[([^\]]+)\]/.exec(text)?.[1] ?? attribute(tag, 'id') ?? 'SCHEMATRON';
    findings.push({ rule: id, severity, message: text.replace(/^\[[^\]]+\]\s*-?\s*/, ''), location: attribute(tag, 'location'), step });
  }
  return findings;
}

/**
 * Behind refuseDoctype, the JDK parser Saxon reads the invoice with may fetch no external DTD,
 * entity or schema over any protocol (JAXP's access properties, empty = none), so a document
 * that reached it with one could still not read a file or the network. xmllint runs with --nonet
 * and without --noent/--loaddtd, so it substitutes no external entity.
 */
const SAXON_PARSER_LOCKDOWN = ['-Djavax.xml.accessExternalDTD=', '-Djavax.xml.accessExternalSchema='];

async function runStep(step: ValidationStep, file: string, tools: ValidationTools, work: string): Promise<ValidationFinding[]> {
  const timeoutMs = tools.timeoutMs ?? 120_000;
  const artefact = path.join(tools.rulesDir, step.file);
  if (step.kind === 'xsd') {
    const { code, stderr } = await run(tools.xmllint, ['--noout', '--nonet', '--schema', artefact, file], timeoutMs);
    if (code === 0) return [];
    return stderr
      .split('\n')
      .filter((line) => line.trim() && !line.endsWith('fails to validate'))
      .map((line) => ({ rule: 'XSD', severity: 'fatal' as const, message: line.replace(`${file}:`, 'line '), step: step.name }));
  }
  const out = path.join(work, `${path.basename(step.file)}.svrl`);
  const { code, stderr } = await run(tools.java, [...SAXON_PARSER_LOCKDOWN, '-cp', tools.saxonJar, 'net.sf.saxon.Transform', `-s:${file}`, `-xsl:${artefact}`, `-o:${out}`], timeoutMs);
  if (code !== 0) throw new ImprintError('INTERNAL', `Saxon failed to run ${step.name} (${step.file}): ${stderr.trim().split('\n').slice(0, 3).join(' ')}`);
  return parseSvrl(await fs.readFile(out, 'utf8'), step.name);
}

/** Validates one XML document with every artefact its syntax and profile call for. */
export async function validateEInvoiceXml(xml: string, tools: ValidationTools): Promise<ValidationReport> {
  refuseDoctype(xml);
  const document = detectDocument(xml);
  if (!document) throw new ImprintError('INVALID_INPUT', 'This is not an EN 16931 invoice: its root element is neither a CII CrossIndustryInvoice nor a UBL 2.1 Invoice.');
  const steps = validationPlan(document);
  const work = await fs.mkdtemp(path.join(os.tmpdir(), 'imprint-einvoice-'));
  try {
    const file = path.join(work, 'invoice.xml');
    await fs.writeFile(file, xml);
    const findings: ValidationFinding[] = [];
    const ran: string[] = [];
    for (const step of steps) {
      const found = await runStep(step, file, tools, work);
      ran.push(step.name);
      findings.push(...found);
      // A document its schema refuses would give the rules nonsense to say: stop there.
      if (step.kind === 'xsd' && found.length > 0) break;
    }
    const skipped = steps.slice(ran.length).map((step) => step.name);
    return { document, steps: ran, skipped, findings, valid: !findings.some((finding) => finding.severity === 'fatal' || finding.severity === 'error') };
  } finally {
    await fs.rm(work, { recursive: true, force: true });
  }
}
