/**
 * A PDF's form as the Debian tools read it: qpdf's JSON (acroform: every field with its full
 * name, type, page, rectangle, value), pdftk-java's dump_data_fields, and how dark a rectangle
 * of a page looks in pdftoppm's rendering (with or without the annotations drawn).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pdfInfo, withFile } from './pdf.js';

export interface QpdfField {
  fullname: string;
  /** /Tx, /Btn, /Ch. */
  fieldtype: string;
  pageposfrom1: number;
  value: unknown;
  alternativename: string;
  isradiobutton: boolean;
  ischeckbox: boolean;
  ischoice: boolean;
  istext: boolean;
  choices: string[];
  annotation: { object: string; appearancestate: string };
  /** The widget's /Rect, read from the object itself. */
  rect: [number, number, number, number];
  parent?: string;
  /** A radio button's option: its on state, named by the group's /Opt when the state is an index into it. */
  option?: string;
}

export interface QpdfForm {
  hasacroform: boolean;
  needappearances: boolean;
  fields: QpdfField[];
}

/** `password`: an encrypted file's. */
export function qpdfForm(pdf: Buffer, password?: string): QpdfForm {
  const json = withFile(pdf, (file) => JSON.parse(execFileSync('qpdf', [...(password === undefined ? [] : [`--password=${password}`]), '--json=2', '--json-key=acroform', '--json-key=qpdf', file], { maxBuffer: 64 * 1024 * 1024 }).toString()));
  const objects = json.qpdf[1] as Record<string, { value?: unknown; stream?: { dict: unknown } }>;
  const resolve = (value: unknown) => (typeof value === 'string' && / \d+ R$/.test(value) ? (objects[`obj:${value}`]?.value ?? objects[`obj:${value}`]?.stream?.dict) : value) as Record<string, unknown> | undefined;
  const form = json.acroform as QpdfForm;
  for (const field of form.fields) {
    const widget = resolve(field.annotation.object)!;
    field.rect = widget['/Rect'] as QpdfField['rect'];
    if (!field.isradiobutton) continue;
    const normal = resolve(resolve(widget['/AP'])?.['/N']) ?? {};
    const state = Object.keys(normal).find((name) => name !== '/Off')!.slice(1);
    const options = resolve(field.parent)?.['/Opt'] as string[] | undefined;
    field.option = options && /^\d+$/.test(state) ? options[Number(state)]!.replace(/^u:/, '') : state;
  }
  return form;
}

/** pdftk-java's fields, each a map of its lines ("FieldName" → ["customer.email"]). */
export function pdftkFields(pdf: Buffer): Array<Record<string, string[]>> {
  const text = withFile(pdf, (file) => execFileSync('pdftk', [file, 'dump_data_fields_utf8'], { timeout: 60_000 }).toString());
  return text
    .split(/^---$/m)
    .map((block) => {
      const field: Record<string, string[]> = {};
      for (const line of block.split('\n')) {
        const match = /^(\w+): ?(.*)$/.exec(line);
        if (match) (field[match[1]!] ??= []).push(match[2]!);
      }
      return field;
    })
    .filter((field) => field.FieldName);
}

/**
 * The share of dark pixels (< 50 % grey) inside a rectangle of a page (PDF points, from the
 * bottom left), rendered by pdftoppm at 144 dpi; `inset` points are left out at each edge so
 * a border drawn around the box does not count.
 */
export function darkShare(pdf: Buffer, page: number, rect: readonly number[], options: { hideAnnotations?: boolean; inset?: number } = {}): number {
  const inset = options.inset ?? 2;
  const scale = 2;
  const [x1, y1, x2, y2] = rect as [number, number, number, number];
  // Every page of the forms under test has one size.
  const pageHeight = pdfInfo(pdf).heightPt;
  const crop = {
    x: Math.round((Math.min(x1, x2) + inset) * scale),
    y: Math.round((pageHeight - Math.max(y1, y2) + inset) * scale),
    w: Math.round((Math.abs(x2 - x1) - 2 * inset) * scale),
    h: Math.round((Math.abs(y2 - y1) - 2 * inset) * scale),
  };
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'imprint-ppm-'));
  try {
    return withFile(pdf, (file) => {
      const args = ['-f', String(page), '-l', String(page), '-r', String(72 * scale), '-gray', '-singlefile', '-x', String(crop.x), '-y', String(crop.y), '-W', String(crop.w), '-H', String(crop.h)];
      if (options.hideAnnotations) args.push('-hide-annotations');
      execFileSync('pdftoppm', [...args, file, path.join(dir, 'crop')], { timeout: 60_000 });
      const image = fs.readFileSync(path.join(dir, 'crop.pgm'));
      // Binary PGM: "P5", width, height, maxval, each a whitespace-separated token, then the pixels.
      const header = /^P5\s+(\d+)\s+(\d+)\s+(\d+)\s/.exec(image.subarray(0, 40).toString('latin1'));
      if (!header) throw new Error('pdftoppm wrote no binary PGM');
      const pixels = image.subarray(header[0].length);
      let dark = 0;
      for (const pixel of pixels) if (pixel < 128) dark++;
      return dark / pixels.length;
    });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
