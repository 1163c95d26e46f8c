// A fight with an NPC typed in place (no template: characterId null) and renamed copies of a template with their own
// pools survives a campaign export and an import into another database: the imported fight replays to the same view
// (names, sides, pools) and the same log. Through the real handlers on two temporary SQLite files.
import { afterEach, describe, expect, it } from 'vitest';
import type { EncounterDetail } from '../../core/api/contract.ts';
import type { GmEvent } from '../../core/encounter/types.ts';
import { tempDir, type TempDir } from '../../db/testing/temp-db.ts';
import { openApp, type AppService } from '../app.ts';
import { useTestApp } from '../testing/harness.ts';

const t = useTestApp();
const { ok } = t;

let other: { dir: TempDir; app: AppService } | null = null;
afterEach(() => {
  other?.app.close();
  other?.dir.remove();
  other = null;
});

/** A second, empty database: where the exported campaign is imported. */
function freshApp(): AppService {
  const dir = tempDir();
  other = { dir, app: openApp({ databasePath: dir.file(), transport: 'cli', version: 'test' }) };
  return other.app;
}

async function call<T>(app: AppService, name: string, input: unknown): Promise<T> {
  const envelope = await app.dispatch(name as never, input);
  if ('error' in envelope) throw new Error(`${name}: ${envelope.error.message}`);
  return envelope.result as T;
}

describe('exporting and importing a fight prepared without friction', () => {
  it('Cairn-Errant: a typed NPC and renamed copies with their own HP come back the same', async () => {
    const campaign = await ok('campaigns:create', { name: 'Barrow', rulesetId: 'cairn-errant' });
    const wren = await ok('characters:create', { campaignId: campaign.id, role: 'pc', name: 'Wren', sheet: {} });
    const goblin = await ok('characters:create', { campaignId: campaign.id, role: 'npc', name: 'Goblin', sheet: { hpMax: 5, hp: 5 } });
    const fight = await ok('encounters:create', { campaignId: campaign.id, name: 'The barrow door' });
    await ok('encounters:addFromCampaign', {
      id: fight.id, pcIds: [wren.id],
      npcs: [{ templateId: goblin.id, count: 3, names: ['', 'Snaga', ''], pool: [null, null, 2] }],
      typed: [{ name: 'Barrow Wight', side: 'enemies', pool: 9 }, { name: 'Torchbearer', side: 'party', pool: 3 }],
    });
    let detail: EncounterDetail = await ok('encounters:get', { id: fight.id });
    const id = (name: string) => detail.view.order.find((c) => c.name === name)!.id;
    const send = async (event: GmEvent) => (detail = await ok('encounters:append', { id: fight.id, event }));
    await send({ type: 'START' });
    await send({ type: 'APPLY_DAMAGE', targetId: id('Barrow Wight'), amount: 4, source: 'a torch' });
    await send({ type: 'APPLY_DAMAGE', targetId: id('Snaga'), amount: 1, source: 'a sling stone' });
    await send({ type: 'DECLARE_INTENT', combatantId: id('Wren'), action: 'melee', targetId: id('Goblin 3') });
    const pools = (d: EncounterDetail) => d.view.order.map((c) => [c.name, c.side, c.health?.current, c.health?.max]);
    expect(pools(detail)).toEqual(expect.arrayContaining([
      ['Goblin 1', 'enemies', 5, 5], ['Snaga', 'enemies', 4, 5], ['Goblin 3', 'enemies', 2, 2], ['Barrow Wight', 'enemies', 5, 9], ['Torchbearer', 'party', 3, 3],
    ]));

    const file = await ok('exports:campaign', { id: campaign.id });
    // The typed NPCs belong to no character in the file either.
    const seeds = JSON.parse(file.content).encounters[0].events[0].event.combatants as { name: string; characterId: string | null }[];
    expect(seeds.filter((s) => s.characterId === null).map((s) => s.name)).toEqual(['Barrow Wight', 'Torchbearer']);

    const fresh = freshApp();
    const imported = await call<{ id: string }>(fresh, 'imports:campaign', { content: file.content });
    const [copy] = (await call<{ encounters: { id: string }[] }>(fresh, 'campaigns:get', { id: imported.id })).encounters;
    const importedFight = await call<EncounterDetail>(fresh, 'encounters:get', { id: copy!.id });
    expect(importedFight.view).toEqual(detail.view);
    expect(pools(importedFight)).toEqual(pools(detail));
    expect(importedFight.log.map(({ seq, text }) => ({ seq, text }))).toEqual(detail.log.map(({ seq, text }) => ({ seq, text })));

    // The imported fight goes on: the Wight takes another blow and ends the fight with nothing carried to it.
    const more = await call<EncounterDetail>(fresh, 'encounters:append', { id: copy!.id, event: { type: 'APPLY_DAMAGE', targetId: id('Barrow Wight'), amount: 2, source: 'a torch' } });
    expect(more.view.order.find((c) => c.name === 'Barrow Wight')!.health).toMatchObject({ current: 3, max: 9 });
  });
});
