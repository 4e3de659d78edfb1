/**
 * A team and a key made for it: the records the store's port (types.ts) and the dashboard's
 * (dashboard/types.ts) both name. A leaf, so neither port imports the other's module back.
 */
export interface Team {
  id: number;
  name: string;
  generationLimit: number;
  createdAt: string;
}

export interface CreatedApiKey {
  keyId: string;
  /** The secret, shown once: only its hash is stored. */
  key: string;
}
