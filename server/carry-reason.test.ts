// Issue 28, point 6: a GM override of what a fight carries onto the characters is logged with its reason (README,
// "Ending a fight"), so the app refuses one without a reason, on the first end and on a redone end alike; an ending
// stored before the reason was required (none in its payload) still opens, replays, undoes and redoes.
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { useTestApp } from './testing/harness.ts';

const t = useTestApp();
const { ok, refused, rows } = t;
const NO_REASON = 'Say why the carried values change: a GM override is logged with its reason.';

async function foughtEnigma() {
  const c = await ok('campaigns:create', { name: 'Vault', rulesetId: 'enigma' });
  const berrik = await ok('characters:create', { campaignId: c.id, role: 'pc', name: 'Berrik', sheet: { endure: 10, navigate: 8 } });
  const goblin = await ok('characters:create', { campaignId: c.id, role: 'npc', name: 'Goblin', sheet: { endure: 6 } });
  const encounter = await ok('encounters:create', { campaignId: c.id, name: 'Bridge' });
  await ok('encounters:addFromCampaign', { id: encounter.id, pcIds: [berrik.id], npcs: [{ templateId: goblin.id, count: 1 }] });
  const started = await ok('encounters:append', { id: encounter.id, event: { type: 'START' } });
  const berrikId = started.view.order.find((x) => x.name === 'Berrik')!.id;
  await ok('encounters:append', { id: encounter.id, event: { type: 'APPLY_DAMAGE', targetId: berrikId, amount: 20, source: 'trap' } });
  await ok('encounters:append', { id: encounter.id, event: { type: 'RESOLVE_PERIL', combatantId: berrikId, choice: 'survive', costText: 'a limp' } });
  return { c, berrik, encounter };
}
const stored = () => ({
  events: rows('SELECT encounter_id, seq, payload_json FROM encounter_events ORDER BY encounter_id, seq'),
  characters: rows('SELECT id, state_json FROM characters ORDER BY id'),
  redo: rows('SELECT * FROM encounter_redo ORDER BY encounter_id, depth'),
});
const END = { type: 'END_COMBAT', outcome: 'Victory' };

describe('a GM override of the carry-over needs its reason', () => {
  it('refuses an adjusted ending with no reason, or a blank one, with a sentence, and writes nothing', async () => {
    const { berrik, encounter } = await foughtEnigma();
    const before = stored();
    const adjust = [{ characterId: berrik.id, key: 'lp', value: 7 }];
    expect(await refused('encounters:append', { id: encounter.id, event: END, carryAdjust: adjust })).toBe(NO_REASON);
    expect(await refused('encounters:append', { id: encounter.id, event: END, carryAdjust: adjust, carryReason: '   ' })).toBe(NO_REASON);
    expect(stored()).toEqual(before);
    // With a reason it is written and logged; an ending with no adjustment needs none.
    const ended = await ok('encounters:append', { id: encounter.id, event: END, carryAdjust: adjust, carryReason: 'a draught' });
    expect(ended.log.at(-1)!.text).toBe("GM override: Berrik's LP is carried as 7 instead of 5 (a draught).");
  });

  it('refuses a redone ending adjusted with no reason, and leaves it undone', async () => {
    const { berrik, encounter } = await foughtEnigma();
    await ok('encounters:append', { id: encounter.id, event: END });
    await ok('encounters:undo', { id: encounter.id });
    const before = stored();
    expect(await refused('encounters:redo', { id: encounter.id, confirm: true, carryAdjust: [{ characterId: berrik.id, key: 'lp', value: 6 }] })).toBe(NO_REASON);
    expect(stored()).toEqual(before);
    expect((await ok('encounters:redo', { id: encounter.id, confirm: true, carryAdjust: [] })).view.phase).toBe('ended');
  });

  it('opens, replays, undoes and redoes an ending stored with an override and no reason (before the reason was required)', async () => {
    const { c, berrik, encounter } = await foughtEnigma();
    await ok('encounters:append', { id: encounter.id, event: END, carryAdjust: [{ characterId: berrik.id, key: 'lp', value: 7 }], carryReason: 'a draught' });
    // The stored event as an older version of the app wrote it: the override without a reason; no snapshot to lean on.
    const db = new Database(t.dir.file());
    db.prepare("UPDATE encounter_events SET payload_json = json_remove(payload_json, '$.carryReason') WHERE type = 'END_COMBAT'").run();
    db.prepare('DELETE FROM encounter_snapshots').run();
    db.close();
    t.reopen();
    expect((await ok('encounters:get', { id: encounter.id })).view.phase).toBe('ended');
    await ok('encounters:undo', { id: encounter.id });
    expect((await ok('campaigns:get', { id: c.id })).characters.find((x) => x.id === berrik.id)!.condition).toEqual({});
    t.reopen();
    const redone = await ok('encounters:redo', { id: encounter.id, confirm: true });
    expect(redone.view.phase).toBe('ended');
    expect(redone.log.at(-1)!.text).toBe("GM override: Berrik's LP is carried as 7 instead of 5.");
    expect((await ok('campaigns:get', { id: c.id })).characters.find((x) => x.id === berrik.id)!.condition).toMatchObject({ lp: 7 });
  });
});

describe('the review of a first fight', () => {
  it('reads what a character holds now from its sheet when the campaign has kept nothing of it yet', async () => {
    const { berrik, encounter } = await foughtEnigma();
    const preview = (await ok('encounters:carryPreview', { id: encounter.id, event: END })).carry!;
    const fields = preview.characters.find((x) => x.characterId === berrik.id)!.fields;
    // Berrik's capacity dice are on the sheet (Endure d10, Navigate d8, the rest d8 by default): unchanged by the fight.
    expect(fields.find((f) => f.key === 'dice')).toMatchObject({ before: { endure: 10, navigate: 8 }, after: { endure: 10, navigate: 8 } });
  });
});
