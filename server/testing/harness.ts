// The handler table on a real temporary SQLite file, opened fresh for every test of a file that calls useTestApp().
import Database from 'better-sqlite3';
import { afterEach, beforeEach, expect } from 'vitest';
import type { Envelope, HandlerName, HandlerResults } from '../../core/api/contract.ts';
import { tempDir, type TempDir } from '../../db/testing/temp-db.ts';
import { openApp, type AppService, type OpenAppOptions } from '../app.ts';

export interface TestApp {
  readonly dir: TempDir;
  readonly app: AppService;
  /** Closes the app and opens it again on the same file (a restart), optionally with other options. */
  reopen(options?: Partial<OpenAppOptions>): void;
  /** Runs a handler that must succeed and returns its result. */
  ok<N extends HandlerName>(name: N, input: unknown): Promise<HandlerResults[N]>;
  /** Runs a handler that must be refused and returns the sentence. */
  refused(name: string, input: unknown): Promise<string>;
  /** Reads rows straight from the file, past the app. */
  rows(sql: string, ...args: unknown[]): Record<string, unknown>[];
}

export function useTestApp(): TestApp {
  let dir: TempDir;
  let app: AppService;
  const open = (options: Partial<OpenAppOptions> = {}) => openApp({ databasePath: dir.file(), transport: 'cli', version: 'test', ...options });
  beforeEach(() => {
    dir = tempDir();
    app = open();
  });
  afterEach(() => {
    app.close();
    dir.remove();
  });
  return {
    get dir() {
      return dir;
    },
    get app() {
      return app;
    },
    reopen(options) {
      app.close();
      app = open(options);
    },
    async ok(name, input) {
      const envelope = await app.dispatch(name, input);
      if ('error' in envelope) throw new Error(`${name}: ${envelope.error.message}`);
      return envelope.result as never;
    },
    async refused(name, input) {
      const envelope = (await app.dispatch(name, input)) as Envelope<unknown>;
      expect('error' in envelope, `${name} should be refused`).toBe(true);
      return (envelope as { error: { message: string } }).error.message;
    },
    rows(sql, ...args) {
      const db = new Database(dir.file(), { readonly: true });
      try {
        return db.prepare(sql).all(...args) as Record<string, unknown>[];
      } finally {
        db.close();
      }
    },
  };
}

/** An Enigma fight in which each of `heroes` falls into Mortal Peril and survives with an injury, then ends. */
export async function injuringFight(ok: TestApp['ok'], campaignId: string, name: string, heroes: { id: string; name: string }[], goblinId: string, injury: string, baseRoll = 3) {
  const encounter = await ok('encounters:create', { campaignId, name });
  await ok('encounters:addFromCampaign', { id: encounter.id, pcIds: heroes.map((h) => h.id), npcs: [{ templateId: goblinId, count: 1 }] });
  const started = await ok('encounters:append', { id: encounter.id, event: { type: 'START' } });
  const ids = Object.fromEntries(started.view.order.map((x) => [x.name, x.id])) as Record<string, string>;
  for (const hero of heroes) {
    await ok('encounters:append', { id: encounter.id, event: { type: 'APPLY_DAMAGE', targetId: ids[hero.name], amount: 20, source: 'a trap' } });
    await ok('encounters:append', { id: encounter.id, event: { type: 'RESOLVE_PERIL', combatantId: ids[hero.name], choice: 'survive', costText: 'a limp', injury: { mode: 'new', name: `${injury} (${hero.name})`, category: 'speed', baseRoll } } });
  }
  await ok('encounters:append', { id: encounter.id, event: { type: 'END_COMBAT', outcome: 'Victory' } });
  return encounter;
}
