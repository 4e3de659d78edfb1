/** Loads a page's data, with its error as a sentence; a 401 means the session is gone (back to sign-in). */
import { useCallback, useEffect, useState } from 'react';
import { ApiError, getJson } from './api.js';

export function signedOutIfGone(error: unknown): void {
  if (error instanceof ApiError && error.status === 401) dispatchEvent(new Event('imprint:signed-out'));
}

export function useLoad<T>(path: string) {
  const [data, setData] = useState<T>();
  const [error, setError] = useState<string>();
  const reload = useCallback(() => {
    getJson<T>(path)
      .then((value) => {
        setData(value);
        setError(undefined);
      })
      .catch((reason: unknown) => {
        signedOutIfGone(reason);
        setError((reason as Error).message);
      });
  }, [path]);
  useEffect(reload, [reload]);
  return { data, error, reload };
}
