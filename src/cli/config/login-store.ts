/**
 * Where `imprint login` keeps the API URL and key: a conf file in the user's config folder
 * (~/.config/imprint/config.json on Linux), readable by the user alone since it holds a key.
 * The folder can be moved with IMPRINT_CONFIG_DIR, which tests use to never touch the real one.
 *
 * Every command reads the file (it decides between remote and embedded mode), so reading is a
 * plain JSON read of conf's file: loading conf itself (with its schema validator) costs about
 * 0.1 s, which a one-shot render should not pay. Writing goes through conf (atomic, 0600).
 */
import fs from 'node:fs';
import path from 'node:path';
import envPaths from 'env-paths';
import { ImprintError } from '../../core/errors.js';

export interface StoredLogin {
  apiUrl?: string;
  apiKey?: string;
}

export interface LoginStore {
  readonly path: string;
  read(): StoredLogin;
  save(login: Required<StoredLogin>): Promise<void>;
  clear(): Promise<void>;
}

const PROJECT = { projectName: 'imprint', projectSuffix: '' } as const;

/** conf's own rule for its file: `<cwd>/config.json`, cwd defaulting to env-paths' config folder. */
function loginFilePath(configDir?: string): string {
  return path.join(configDir ?? envPaths(PROJECT.projectName, { suffix: PROJECT.projectSuffix }).config, 'config.json');
}

function readLogin(file: string): StoredLogin {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw error;
  }
  let stored: unknown;
  try {
    stored = JSON.parse(text);
  } catch {
    throw new ImprintError('USAGE', `The login file ${file} is not valid JSON. Run \`imprint login\` again, or delete the file.`);
  }
  const pick = (key: keyof StoredLogin) => {
    const value = (stored as Record<string, unknown> | null)?.[key];
    return typeof value === 'string' ? value : undefined;
  };
  return { apiUrl: pick('apiUrl'), apiKey: pick('apiKey') };
}

export function openLoginStore(configDir?: string): LoginStore {
  const file = loginFilePath(configDir);
  const conf = async () => {
    const { default: Conf } = await import('conf');
    return new Conf<StoredLogin>({
      ...PROJECT,
      ...(configDir ? { cwd: configDir } : {}),
      configFileMode: 0o600,
      schema: { apiUrl: { type: 'string' }, apiKey: { type: 'string' } },
    });
  };
  return {
    path: file,
    read: () => readLogin(file),
    save: async (login) => (await conf()).set(login),
    clear: async () => (await conf()).clear(),
  };
}
