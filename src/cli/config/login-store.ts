/**
 * Where `imprint login` keeps the API URL and key: a conf file in the user's config folder
 * (~/.config/imprint/config.json on Linux), readable by the user alone since it holds a key.
 * The folder can be moved with IMPRINT_CONFIG_DIR, which tests use to never touch the real one.
 */
import Conf from 'conf';

export interface StoredLogin {
  apiUrl?: string;
  apiKey?: string;
}

export interface LoginStore {
  readonly path: string;
  read(): StoredLogin;
  save(login: Required<StoredLogin>): void;
  clear(): void;
}

export function openLoginStore(configDir?: string): LoginStore {
  const conf = new Conf<StoredLogin>({
    projectName: 'imprint',
    projectSuffix: '',
    ...(configDir ? { cwd: configDir } : {}),
    configFileMode: 0o600,
    schema: { apiUrl: { type: 'string' }, apiKey: { type: 'string' } },
  });
  return {
    path: conf.path,
    read: () => ({ apiUrl: conf.get('apiUrl'), apiKey: conf.get('apiKey') }),
    save: (login) => conf.set(login),
    clear: () => conf.clear(),
  };
}
