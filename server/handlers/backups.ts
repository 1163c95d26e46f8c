// Backups of this database (db/backup.ts): list, make one now, restore one (after backing up the current database first).
import type { HandlerContext } from '../app.ts';
import type { BackupSummary } from '../../core/api/contract.ts';
import { listBackups } from '../../db/backup.ts';

export const backupHandlers = {
  'backups:list': (ctx: HandlerContext): BackupSummary[] => listBackups(ctx.options.databasePath, ctx.options.nativeBinding),
  'backups:create': (ctx: HandlerContext): Promise<BackupSummary> => ctx.backups.create('manual'),
  'backups:restore': (ctx: HandlerContext, input: { name: string }) => ctx.backups.restore(input.name),
};
