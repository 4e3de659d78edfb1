/**
 * The shape of an A2 input (api.md A2), written once: `POST /api/generate`'s body and each row
 * of an A2 job are judged by it, so both refuse the same things with the same words. Only the
 * shape is judged here; the url's network policy is checked by the caller (core/url-access.ts),
 * which may need to resolve the host.
 */
import { ImprintError } from './errors.js';

export interface HtmlSourceFields {
  html?: string;
  url?: string;
}

/**
 * `where` prefixes the field names in messages ("rows[3]." for a job's row). Empty html (or
 * only white space) is refused: it prints a blank page, which no caller means to ask for.
 */
export function parseHtmlSourceFields(input: { html?: unknown; url?: unknown }, where = ''): HtmlSourceFields {
  const { html, url } = input;
  if (html === undefined && url === undefined) {
    throw new ImprintError('INVALID_INPUT', `Nothing to render${where ? ` in ${where.replace(/\.$/, '')}` : ''}: give "${where}html", "${where}url", or both (api.md A2).`);
  }
  if (html !== undefined && typeof html !== 'string') throw new ImprintError('INVALID_INPUT', `Invalid ${where}html: expected a string of HTML.`);
  if (typeof html === 'string' && html.trim() === '') {
    throw new ImprintError('INVALID_INPUT', `Invalid ${where}html: it is empty, which would print a blank page. Give the HTML to convert${url === undefined ? ', or a "url" instead' : ', or leave "html" out to print the page at "url"'}.`);
  }
  if (url !== undefined && typeof url !== 'string') throw new ImprintError('INVALID_INPUT', `Invalid ${where}url ${JSON.stringify(url)}: expected a string, an absolute http or https address.`);
  return { html: html as string | undefined, url: url as string | undefined };
}
