// Every reply crosses Electron's IPC by the structured clone algorithm (`ipcMain.handle`), which refuses what JSON
// lets through: a Proxy (the rulesets' combatant tables, core/encounter/combatant-table.ts), a function, a symbol.
// Web mode and `gmw` send JSON, and the desktop app cannot run here, so this test is where a reply the desktop app
// could not deliver shows: every ruleset's demo campaign read back whole, and a generated fight of each ruleset
// played request by request as the runner sends them, with an undo and a redo along the way.
import { afterEach, beforeEach, expect, it } from 'vitest';
import { generateFight } from '../bench/fight.ts';
import { prepareCampaign } from '../bench/store.ts';
import type { CampaignDetail, CampaignSummary, EncounterDetail } from '../core/api/contract.ts';
import { RULESETS } from '../core/rulesets/registry.ts';
import { tempDir, type TempDir } from '../db/testing/temp-db.ts';
import { openApp, type AppService } from './app.ts';

let dir: TempDir;
let app: AppService;
beforeEach(() => {
  dir = tempDir();
  app = openApp({ databasePath: dir.file(), transport: 'ipc', version: 'test' });
});
afterEach(() => {
  app.close();
  dir.remove();
});

let checked = 0;
/** A request through the app, its envelope cloned as Electron's IPC clones it; the result, or its error thrown. */
async function viaIpc<T>(name: string, input: unknown): Promise<T> {
  const envelope = await app.dispatch(name, input);
  expect(() => structuredClone(envelope), `${name}'s reply crosses IPC`).not.toThrow();
  checked += 1;
  if ('error' in envelope) throw new Error(`${name}: ${envelope.error.message}`);
  return envelope.result as T;
}

const since = (detail: EncounterDetail) => ({ eventCount: detail.encounter.eventCount, version: detail.encounter.updatedAt });

it("every ruleset's demo campaign, read back whole, crosses IPC", async () => {
  for (const campaign of await viaIpc<CampaignSummary[]>('campaigns:demo', {})) {
    const detail = await viaIpc<CampaignDetail>('campaigns:get', { id: campaign.id });
    for (const encounter of detail.encounters) {
      await viaIpc('encounters:get', { id: encounter.id });
      await viaIpc('encounters:summary', { id: encounter.id });
    }
    for (const character of detail.characters) await viaIpc('characters:history', { id: character.id });
  }
  expect(checked).toBeGreaterThan(6 * 3);
});

it.each(RULESETS.map((r) => r.id))('a generated %s fight, request by request with an undo and a redo, crosses IPC', async (rulesetId) => {
  const { campaignId, characterIds } = await prepareCampaign(app, rulesetId, 3, 3);
  const { id } = await viaIpc<{ id: string }>('encounters:create', { campaignId, name: 'Through IPC' });
  const fight = generateFight(rulesetId, 8, 150, 2, characterIds.slice(0, 6));
  let shown = await viaIpc<EncounterDetail>('encounters:get', { id });
  for (const [index, event] of fight.events.entries()) {
    shown = await viaIpc<EncounterDetail>('encounters:append', { id, event, ask: true, since: since(shown) });
    if (shown.carryCheck) break;
    if (index % 40 === 39) {
      shown = await viaIpc<EncounterDetail>('encounters:undo', { id, since: since(shown) });
      shown = await viaIpc<EncounterDetail>('encounters:redo', { id, ask: true, since: since(shown) });
    }
  }
  await viaIpc('encounters:summary', { id });
  expect(shown.encounter.eventCount).toBeGreaterThan(20);
});
