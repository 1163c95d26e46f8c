// Building benchmark databases the way the app fills them: campaigns and characters through the handler table,
// fights written through EncounterStore in big transactions (as scripts/long-fight-timing.mjs does).
import { join } from 'node:path';
import type { GmEvent } from '../core/encounter/types.ts';
import type { RulesetId } from '../core/rulesets/types.ts';
import { openDatabase, writeTransaction, type Db } from '../db/connection.ts';
import { getEncounter } from '../db/encounters.ts';
import { openApp, type AppService } from '../server/app.ts';
import { EncounterStore } from '../server/encounter-store.ts';
import { benchSheet } from './fight.ts';

let opened = 0;

/** A new database file in `folder`. */
export function databaseIn(folder: string, name: string): string {
  opened += 1;
  return join(folder, `${name}-${opened}.sqlite`);
}

export function open(databasePath: string): AppService {
  return openApp({ databasePath, transport: 'cli', version: 'bench' });
}

/** A handler's result, or its error thrown. */
export async function ok<T = any>(app: AppService, name: string, input: unknown): Promise<T> {
  const envelope = await app.dispatch(name, input);
  if ('error' in envelope) throw new Error(`${name}: ${envelope.error.message}`);
  return envelope.result as T;
}

export interface PreparedCampaign {
  campaignId: string;
  /** Party members first, then NPC templates. */
  characterIds: string[];
}

/** A campaign with `party` party members and `npcs` NPC templates, through the handler table. */
export async function prepareCampaign(app: AppService, rulesetId: RulesetId, party: number, npcs: number): Promise<PreparedCampaign> {
  const campaign = await ok<{ id: string }>(app, 'campaigns:create', { name: `Bench ${rulesetId}`, rulesetId });
  const characterIds: string[] = [];
  for (let i = 0; i < party + npcs; i++) {
    const role = i < party ? 'pc' : 'npc';
    characterIds.push((await ok<{ id: string }>(app, 'characters:create', { campaignId: campaign.id, role, name: `${role === 'pc' ? 'Hero' : 'Raider'} ${i + 1}`, sheet: benchSheet(rulesetId, role) })).id);
  }
  return { campaignId: campaign.id, characterIds };
}

/** Writes `events` onto encounter `encounterId` through EncounterStore, `batch` events per transaction. */
export function writeEvents(db: Db, encounterId: string, events: readonly GmEvent[], now: string, batch = 5000): void {
  const store = new EncounterStore(db);
  for (let done = 0; done < events.length; done += batch) {
    writeTransaction(db, () => {
      for (const event of events.slice(done, done + batch)) store.append(getEncounter(db, encounterId)!, event, now);
    });
  }
}

/** Opens the file directly (no app), runs `work` and closes it. */
export function withDatabase<T>(databasePath: string, work: (db: Db) => T): T {
  const db = openDatabase(databasePath);
  try {
    return work(db);
  } finally {
    db.close();
  }
}
