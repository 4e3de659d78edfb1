/** The studio's calls to the `imprint dev` server it was loaded from. */
import type { ErrorLocation, TemplateState } from './protocol.js';

export type { TemplateState, ErrorLocation };

export interface TemplateDetails {
  schema?: object;
  /** Why there is no schema (no typed props parameter...). */
  schemaNote?: string;
  fixtures: { file: string }[];
}

const base = (name: string) => `/api/t/${encodeURIComponent(name)}`;

async function json<T>(response: Response): Promise<T> {
  const body = await response.json();
  if (!response.ok) throw new Error(body?.error ?? `${response.status} ${response.statusText}`);
  return body as T;
}

const post = (url: string, body: unknown) => fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

export const api = {
  details: (name: string) => fetch(`${base(name)}/details`).then((r) => json<TemplateDetails>(r)),
  fixture: (name: string, file: string) => fetch(`${base(name)}/fixture?file=${encodeURIComponent(file)}`).then((r) => json<unknown>(r)),
  validate: (name: string, props: unknown) => post(`${base(name)}/validate`, { props }).then((r) => json<{ errors: string[] }>(r)),
  locate: (name: string, stack: string | undefined) => post(`${base(name)}/locate`, { stack }).then((r) => json<{ at?: ErrorLocation }>(r)),
  saveFixture: (name: string, label: string, props: unknown) => post(`${base(name)}/fixtures`, { label, props }).then((r) => json<{ file: string }>(r)),
  async print(name: string, props: unknown): Promise<{ pdf: Blob; pages: number; problems: string[] } | { error: string }> {
    const response = await post(`${base(name)}/print`, { props });
    if (!response.ok) return { error: ((await response.json()) as { error: string }).error };
    const problems = JSON.parse(decodeURIComponent(response.headers.get('x-problems') ?? '%5B%5D')) as string[];
    return { pdf: await response.blob(), pages: Number(response.headers.get('x-page-count') ?? 0), problems };
  },
};
