/**
 * The dashboard's calls to its service: JSON under /dashboard/api, the session in an HttpOnly
 * cookie the page cannot read, and the CSRF token (held in memory only) sent with each change.
 */
let csrfToken = '';

export const setCsrf = (token: string) => {
  csrfToken = token;
};

export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code?: string,
  ) {
    super(message);
  }
}

async function failure(response: Response): Promise<ApiError> {
  try {
    const body = (await response.json()) as { error?: string; code?: string };
    return new ApiError(body.error ?? `The service answered ${response.status}.`, response.status, body.code);
  } catch {
    return new ApiError(`The service answered ${response.status}.`, response.status);
  }
}

export async function getJson<T>(path: string): Promise<T> {
  const response = await fetch(path, { headers: { accept: 'application/json' }, credentials: 'same-origin' });
  if (!response.ok) throw await failure(response);
  return (await response.json()) as T;
}

async function change(method: string, path: string, body?: unknown): Promise<Response> {
  const response = await fetch(path, {
    method,
    credentials: 'same-origin',
    headers: { 'x-csrf-token': csrfToken, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw await failure(response);
  return response;
}

export const send = async <T>(method: string, path: string, body?: unknown): Promise<T> => (await (await change(method, path, body)).json()) as T;
export const sendForBytes = async (path: string, body: unknown): Promise<ArrayBuffer> => (await change('POST', path, body)).arrayBuffer();

export interface SessionInfo {
  team: { name: string; generationLimit: number };
  keyId: string;
  /** Signed in with a test key: the session stays in test mode (test keys only, renders stamped, test jobs only). */
  test: boolean;
  csrf: string;
}
