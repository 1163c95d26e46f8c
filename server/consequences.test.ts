// What an Enigma fight leaves on the campaign: injuries the moment they happen (linked to their event, gone when
// it is undone), condition and Escalation carried over when the encounter ends, and the app's own dice rolls.
import { describe, expect, it } from 'vitest';
import { openDatabase, writeTransaction } from '../db/connection.ts';
import { getEncounter } from '../db/encounters.ts';
import { EncounterStore } from './encounter-store.ts';
import { useTestApp } from './testing/harness.ts';

const t = useTestApp();
const { ok, rows } = t;

async function campaignWithFight(name = 'First blood') {
  const campaign = await ok('campaigns:create', { name: 'Vault', rulesetId: 'enigma' });
  const berrik = await ok('characters:create', { campaignId: campaign.id, role: 'pc', name: 'Berrik', sheet: { endure: 10, navigate: 8 } });
  const goblin = await ok('characters:create', { campaignId: campaign.id, role: 'npc', name: 'Goblin', sheet: { endure: 6 } });
  const start = async (encounterName: string) => {
    const encounter = await ok('encounters:create', { campaignId: campaign.id, name: encounterName });
    await ok('encounters:addFromCampaign', { id: encounter.id, pcIds: [berrik.id], npcs: [{ templateId: goblin.id, count: 1 }] });
    const detail = await ok('encounters:append', { id: encounter.id, event: { type: 'START' } });
    return { encounter, ids: Object.fromEntries(detail.view.order.map((c) => [c.name, c.id])) as Record<string, string> };
  };
  return { campaign, berrik, goblin, start, first: await start(name) };
}
const append = (id: string, event: unknown) => ok('encounters:append', { id, event });

describe('consequences of an Enigma fight', () => {
  it('writes an injury the moment Survive gives it, linked to its event, and removes it on undo', async () => {
    const { campaign, berrik, first } = await campaignWithFight();
    const { encounter, ids } = first;
    await append(encounter.id, { type: 'APPLY_DAMAGE', targetId: ids['Berrik'], amount: 20, source: 'trap' });
    const survived = await append(encounter.id, {
      type: 'RESOLVE_PERIL', combatantId: ids['Berrik'], choice: 'survive', costText: 'a limp',
      injury: { mode: 'new', name: 'Sprained Ankle', category: 'speed', baseRoll: 3 },
    });
    const injuries = rows('SELECT character_id, name, source_encounter_id, source_seq, data_json FROM injuries');
    expect(injuries).toEqual([expect.objectContaining({ character_id: berrik.id, name: 'Sprained Ankle', source_encounter_id: encounter.id, source_seq: survived.encounter.eventCount })]);
    expect(JSON.parse(String(injuries[0]!['data_json']))).toMatchObject({ restsRemaining: 3, multiplier: 1, baseRoll: 3 });
    expect((await ok('campaigns:get', { id: campaign.id })).injuries.map((i) => i.name)).toEqual(['Sprained Ankle']);
    await ok('encounters:undo', { id: encounter.id });
    expect(rows('SELECT * FROM injuries')).toEqual([]);
    await ok('encounters:redo', { id: encounter.id });
    expect(rows('SELECT name FROM injuries')).toEqual([{ name: 'Sprained Ankle' }]);
  });

  it('writes the injury again after a write that had written it was rolled back', async () => {
    const { first } = await campaignWithFight();
    const { encounter, ids } = first;
    await append(encounter.id, { type: 'APPLY_DAMAGE', targetId: ids['Berrik'], amount: 20, source: 'trap' });
    const survive = { type: 'RESOLVE_PERIL', combatantId: ids['Berrik'], choice: 'survive', costText: 'a limp', injury: { mode: 'new', name: 'Sprained Ankle', category: 'speed', baseRoll: 3 } };
    // A second connection with its own store: the same code the app runs, with a transaction the test can fail.
    const db = openDatabase(t.dir.file());
    try {
      const store = new EncounterStore(db);
      const now = new Date().toISOString();
      expect(() => writeTransaction(db, () => {
        store.append(getEncounter(db, encounter.id)!, survive, now);
        throw new Error('a later step of the same write failed');
      })).toThrow('a later step');
      expect(rows('SELECT name FROM injuries')).toEqual([]);
      // The store wrote the injury inside the rolled-back transaction: it must not take the rows as written.
      writeTransaction(db, () => store.append(getEncounter(db, encounter.id)!, survive, now));
      expect(rows('SELECT name FROM injuries')).toEqual([{ name: 'Sprained Ankle' }]);
    } finally {
      db.close();
    }
  });

  it('carries LP, healing restrictions and Escalation onto the campaign when the fight ends, and back on undo', async () => {
    const { campaign, berrik, first, start } = await campaignWithFight();
    const { encounter, ids } = first;
    await append(encounter.id, { type: 'APPLY_DAMAGE', targetId: ids['Berrik'], amount: 20, source: 'trap' });
    await append(encounter.id, { type: 'RESOLVE_PERIL', combatantId: ids['Berrik'], choice: 'survive', costText: 'curse', healingRestriction: 'fixesOnly' });
    await append(encounter.id, { type: 'RAISE_ESCALATION', by: 2, source: 'war drums' });
    await append(encounter.id, { type: 'END_COMBAT', outcome: 'Victory' });
    let home = await ok('campaigns:get', { id: campaign.id });
    expect(home.characters.find((c) => c.id === berrik.id)!.condition).toMatchObject({ lp: 5, healingRestriction: 'fixesOnly' });
    expect(home.party).toEqual({ escalation: 3 });

    await ok('encounters:undo', { id: encounter.id });
    home = await ok('campaigns:get', { id: campaign.id });
    expect(home.characters.find((c) => c.id === berrik.id)!.condition).toEqual({});
    expect(home.party).toEqual({});
    await ok('encounters:redo', { id: encounter.id, confirm: true });

    // The next fight starts where this one left off: LP 5, Fixes only, Escalation 3 in round 1 (R-E20).
    const next = await start('Second fight');
    const detail = await ok('encounters:get', { id: next.encounter.id });
    const hero = detail.view.order.find((c) => c.name === 'Berrik')!;
    expect(hero.health).toEqual({ label: 'LP', current: 5, max: 10 });
    expect(hero.tags).toContain('Fixes only');
    expect(detail.view.counters).toEqual([{ key: 'escalation', label: 'Escalation', value: 3 }]);
  });

  it('marks a Sacrifice as death and keeps the dead out of later fights', async () => {
    const { campaign, berrik, first } = await campaignWithFight();
    const { encounter, ids } = first;
    await append(encounter.id, { type: 'APPLY_DAMAGE', targetId: ids['Berrik'], amount: 20, source: 'trap' });
    await append(encounter.id, { type: 'RESOLVE_PERIL', combatantId: ids['Berrik'], choice: 'sacrifice', costText: 'holds the gate' });
    await append(encounter.id, { type: 'END_COMBAT', outcome: 'Pyrrhic' });
    const home = await ok('campaigns:get', { id: campaign.id });
    expect(home.characters.find((c) => c.id === berrik.id)!.condition).toMatchObject({ dead: true, legacy: 'holds the gate' });
    const later = await ok('encounters:create', { campaignId: campaign.id, name: 'Later' });
    const refused = await t.app.dispatch('encounters:addFromCampaign', { id: later.id, pcIds: [berrik.id], npcs: [] });
    expect(refused).toEqual({ error: { message: 'Berrik is dead and cannot join a fight.', kind: 'refused' } });
  });

  it('rolls the dice an event leaves to the app, and keeps dice typed in', async () => {
    const { first } = await campaignWithFight();
    const { encounter, ids } = first;
    const preview = await ok('encounters:preview', { id: encounter.id, event: { type: 'ATTACK', attackerId: ids['Berrik'], targetId: ids['Goblin'], mode: 'ranged', distance: 12, sight: 'clear', damage: 'full' } });
    expect(preview.rolls.map((r) => [r.path.join('.'), r.notation])).toEqual([['attackRoll', '2d8kl1'], ['defenceRoll', '1d8']]);
    const rolled = await append(encounter.id, { type: 'ATTACK', attackerId: ids['Berrik'], targetId: ids['Goblin'], mode: 'melee', sight: 'clear', damage: 'full' });
    expect(rolled.log.at(-1)!.text).toMatch(/Attack d8 \[\d\] → \d \+ Escalation 1 = \d+ against Endure d6 \[\d\] → \d/);
    const stored = rows("SELECT payload_json FROM encounter_events WHERE type = 'ATTACK'")[0]!;
    expect(JSON.parse(String(stored['payload_json'])).attackRoll).toMatchObject({ source: 'app', faces: [expect.any(Number)] });
    const typed = await append(encounter.id, { type: 'CHECK', actorId: ids['Berrik'], capacity: 'navigate', difficulty: 5, cost: 0, description: 'jump', roll: { faces: [6], source: 'manual' } });
    expect(typed.log.at(-1)!.text).toContain('[6] (typed in) → 6 against difficulty 5: success');
  });
});
