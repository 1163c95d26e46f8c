// Apps a test opens on real database files (web mode's kind of app, without its lock), closed after each test; and
// a call that must succeed.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { CampaignSummary, Envelope } from '../../core/api/contract.ts';
import { openApp, type AppService } from '../app.ts';

const open: AppService[] = [];

export function start(path: string): AppService {
  const app = openApp({ databasePath: path, transport: 'web', version: 'test' });
  open.push(app);
  return app;
}

export function stop(app: AppService): void {
  app.close();
  open.splice(open.indexOf(app), 1);
}

/** For afterEach: closes every app the test left open. */
export function closeAll(): void {
  for (const app of open.splice(0)) app.close();
}

/** The call's result; a refusal fails the test with its sentence. */
export async function ok<T>(app: AppService, name: string, input: unknown = {}): Promise<T> {
  const envelope = (await app.dispatch(name, input)) as Envelope<T>;
  if ('error' in envelope) throw new Error(`${name}: ${envelope.error.message}`);
  return envelope.result;
}

export const names = async (app: AppService) => (await ok<CampaignSummary[]>(app, 'campaigns:list')).map((c) => c.name).sort();
export const sha256 = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');
