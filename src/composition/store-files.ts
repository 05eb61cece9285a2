// The embedded store's file commands (`school-search backup`, `restore`), for the command line,
// which reaches the stores only through this room. MongoDB has its own tools for both.
import { type BackupReport, backupStore } from '../stores/sqlite/backup.ts';
import { type RestoreReport, restoreStore } from '../stores/sqlite/restore.ts';
import type { StoreConfig } from '../stores/store.config.ts';

type EmbeddedConfig = Extract<StoreConfig, { kind: 'sqlite' }>;

export type { BackupReport, RestoreReport };

export function backupEmbeddedStore(config: EmbeddedConfig, target: string): Promise<BackupReport> {
  return backupStore(config.path, target);
}

export function restoreEmbeddedStore(config: EmbeddedConfig, source: string): Promise<RestoreReport> {
  return restoreStore(config.path, source);
}
