// A ledger entry that creates lasting records (RecoveryChange.newRecords): Any system's injury between sessions, on
// a real temporary SQLite file. The record is written in the entry's transaction with the entry as its source and the
// day gained, shows in the history and the campaign like a fight's injury, heals by HEAL_INJURY; undoing the entry
// deletes exactly it, redo brings it back as it was, and a campaign file carries it (and the undone one) across.
import { describe, expect, it } from 'vitest';
import { useTestApp } from './testing/harness.ts';

const t = useTestApp();
const { ok } = t;

async function campaignWithAna() {
  const campaign = await ok('campaigns:create', { name: 'Saltmarsh', rulesetId: 'any-system' });
  const ana = await ok('characters:create', { campaignId: campaign.id, role: 'pc', name: 'Ana', sheet: { hpMax: 20, hp: 20, tempHp: 0, ac: 15, initiativeModifier: 3, notes: '' } });
  const append = (event: Record<string, unknown>) => ok('ledger:append', { campaignId: campaign.id, event });
  return { campaign, ana, append };
}

/** The stored record rows but the time any write moves. */
const records = (campaignId: string) =>
  t.rows('SELECT * FROM injuries WHERE campaign_id = ? ORDER BY created_at', campaignId).map(({ updated_at: _moved, ...row }) => row);
const counts = (campaignId: string) => ({
  records: t.rows('SELECT count(*) AS n FROM injuries WHERE campaign_id = ?', campaignId)[0]!['n'],
  entries: t.rows('SELECT count(*) AS n FROM ledger_entries WHERE campaign_id = ?', campaignId)[0]!['n'],
});

describe('an injury between sessions (a ledger entry that creates a record)', () => {
  it('is written with the entry as its source on the day gained, shows in the history and the campaign, and heals', async () => {
    const { campaign, ana, append } = await campaignWithAna();
    await append({ type: 'SESSION_START' });
    await append({ type: 'ADVANCE_DAYS', days: 2 });
    const injured = await append({ type: 'INJURY', characterId: ana.id, name: 'Broken arm', notes: 'Fell off the cliff path in the fog.' });

    const entry = injured.entries[0]!;
    expect(entry.log).toEqual(['Ana is injured on day 3: Broken arm.', 'Notes: Fell off the cliff path in the fog.']);
    expect(entry.characterIds).toEqual([ana.id]);
    expect(injured.characters[0]!.card.records.map((r) => [r.name, r.category, r.status])).toEqual([['Broken arm', 'injury', 'until healed']]);
    const session = injured.session!;
    const [row] = t.rows('SELECT * FROM injuries WHERE campaign_id = ?', campaign.id);
    expect(row).toMatchObject({
      character_id: ana.id, name: 'Broken arm', category: 'injury', source_encounter_id: null, source_seq: entry.seq, day_gained: 3,
      session_gained: session.id, healed_at: null, ledger_seq: null,
    });
    expect(JSON.parse(row!['data_json'] as string)).toEqual({ untilLongRest: false, day: 3, notes: 'Fell off the cliff path in the fog.' });

    // The character's history: the record, where it came from, and the day it was gained.
    const history = await ok('characters:history', { id: ana.id });
    expect(history.records).toEqual([expect.objectContaining({
      name: 'Broken arm', category: 'injury', source: null, entry: { seq: entry.seq, text: 'Ana is injured on day 3: Broken arm.' },
      dayGained: 3, sessionGained: session.number, healed: false, treatments: [],
    })]);
    expect(history.items.filter((i) => i.kind === 'gained').map((i) => i.text)).toEqual(['Ana gained Broken arm.']);
    expect(history.recordCounts).toEqual({ open: 1, healed: 0 });
    // The campaign's open records, as a fight's injury.
    const home = await ok('campaigns:get', { id: campaign.id });
    expect(home.injuries.map((r) => [r.name, r.characterId, r.sourceEncounterId])).toEqual([['Broken arm', ana.id, null]]);

    // HEAL_INJURY heals it, as it heals a fight's injury.
    const recordId = injured.characters[0]!.card.records[0]!.id;
    const healed = await append({ type: 'HEAL_INJURY', characterId: ana.id, recordId });
    expect(healed.entries[0]!.log).toEqual(["Ana's Broken arm heals."]);
    expect(healed.characters[0]!.card.records).toEqual([]);
    expect((await ok('characters:history', { id: ana.id })).recordCounts).toEqual({ open: 0, healed: 1 });
  });

  it('undo deletes exactly the records the entry created; redo brings them back as they were', async () => {
    const { campaign, ana, append } = await campaignWithAna();
    const bo = await ok('characters:create', { campaignId: campaign.id, role: 'pc', name: 'Bo', sheet: { hpMax: 12, hp: 12, tempHp: 0, ac: 13, initiativeModifier: 0, notes: '' } });
    await append({ type: 'INJURY', characterId: bo.id, name: 'Cursed hand', untilLongRest: false });
    const before = records(campaign.id);
    await append({ type: 'INJURY', characterId: ana.id, name: 'Sprained wrist', untilLongRest: true });
    const written = records(campaign.id);
    expect(written).toHaveLength(2);

    const undone = await ok('ledger:undo', { campaignId: campaign.id });
    expect(records(campaign.id)).toEqual(before);
    expect(undone.characters.find((c) => c.id === ana.id)!.card.records).toEqual([]);
    expect((await ok('characters:history', { id: ana.id })).records).toEqual([]);

    await ok('ledger:redo', { campaignId: campaign.id });
    expect(records(campaign.id)).toEqual(written);
    expect((await ok('characters:history', { id: ana.id })).records.map((r) => r.name)).toEqual(['Sprained wrist']);

    // A record healed since cannot go with its entry: the heal is the newest entry, undone first.
    const recordId = written.find((r) => r['character_id'] === ana.id)!['id'];
    await append({ type: 'HEAL_INJURY', characterId: ana.id, recordId });
    await ok('ledger:undo', { campaignId: campaign.id });
    await ok('ledger:undo', { campaignId: campaign.id });
    expect(records(campaign.id)).toEqual(before);
  });

  it('refuses a bad injury with a sentence and writes nothing', async () => {
    const { campaign, ana } = await campaignWithAna();
    const other = await ok('campaigns:create', { name: 'Elsewhere', rulesetId: 'any-system' });
    const stranger = await ok('characters:create', { campaignId: other.id, role: 'pc', name: 'Stranger', sheet: { hpMax: 8, hp: 8, tempHp: 0, ac: 10, initiativeModifier: 0, notes: '' } });
    const refused = (event: Record<string, unknown>) => t.refused('ledger:append', { campaignId: campaign.id, event });
    const nothing = counts(campaign.id);

    expect(await refused({ type: 'INJURY', characterId: 'nobody', name: 'Broken arm' })).toBe('That character is not a party member of this campaign.');
    expect(await refused({ type: 'INJURY', characterId: stranger.id, name: 'Broken arm' })).toBe('That character is not a party member of this campaign.');
    expect(await refused({ type: 'INJURY', characterId: ana.id, name: 'x'.repeat(10_000) })).toBe("An injury's name is at most 120 characters.");
    expect(await refused({ type: 'INJURY', characterId: ana.id, name: '   ' })).toBe('Name the injury.');
    expect(await refused({ type: 'INJURY', characterId: ana.id, name: 'Burn', notes: 'y'.repeat(501) })).toBe('Notes on an injury are at most 500 characters.');
    expect(await refused({ type: 'INJURY', characterId: ana.id, name: 'Burn', category: 'death' })).toBe('The INJURY has fields this app does not know: category.');
    expect(counts(campaign.id)).toEqual(nothing);
  });

  it('a campaign file carries the record and the undone one: after an import, undo and redo work as before', async () => {
    const { campaign, ana, append } = await campaignWithAna();
    await append({ type: 'INJURY', characterId: ana.id, name: 'Broken arm' });
    await append({ type: 'INJURY', characterId: ana.id, name: 'Frostbite' });
    await ok('ledger:undo', { campaignId: campaign.id });

    const file = await ok('exports:campaign', { id: campaign.id });
    const copy = await ok('imports:campaign', { content: file.content });
    const copied = (await ok('campaigns:get', { id: copy.id })).characters.find((c) => c.name === 'Ana')!;
    const history = await ok('characters:history', { id: copied.id });
    expect(history.records.map((r) => [r.name, r.entry])).toEqual([['Broken arm', { seq: 1, text: 'Ana is injured on day 1: Broken arm.' }]]);
    const names = () => t.rows('SELECT name FROM injuries WHERE campaign_id = ? ORDER BY name', copy.id).map((r) => r['name']);

    await ok('ledger:redo', { campaignId: copy.id });
    expect(names()).toEqual(['Broken arm', 'Frostbite']);
    await ok('ledger:undo', { campaignId: copy.id });
    await ok('ledger:undo', { campaignId: copy.id });
    expect(names()).toEqual([]);
  });
});
