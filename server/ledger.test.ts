// The campaign clock, sessions and the ledger's undo through the handler table on a real SQLite file: sessions
// start and end explicitly, encounters belong to one, days advance, every entry undoes to the exact rows it
// replaced; ending a fight shows its carry-over first and takes the GM's adjustments as logged overrides.
import { describe, expect, it } from 'vitest';
import { useTestApp } from './testing/harness.ts';

const t = useTestApp();
const { ok, refused, rows } = t;

/** Every row the ledger may touch, as stored, to compare the database before and after. */
const world = () => ({
  campaigns: rows('SELECT id, day, session_id, party_json FROM campaigns ORDER BY id'),
  characters: rows('SELECT id, state_json FROM characters ORDER BY id'),
  injuries: rows('SELECT id, data_json, healed_at, day_healed, session_healed, ledger_seq FROM injuries ORDER BY id'),
  sessions: rows('SELECT * FROM sessions ORDER BY id'),
});

async function campaign(rulesetId = 'enigma') {
  const c = await ok('campaigns:create', { name: 'Vault', rulesetId });
  const berrik = await ok('characters:create', { campaignId: c.id, role: 'pc', name: 'Berrik', sheet: rulesetId === 'enigma' ? { endure: 10, navigate: 8 } : {} });
  const goblin = await ok('characters:create', { campaignId: c.id, role: 'npc', name: 'Goblin', sheet: rulesetId === 'enigma' ? { endure: 6 } : {} });
  return { campaign: c, berrik, goblin };
}
const ledger = (campaignId: string, event: unknown) => ok('ledger:append', { campaignId, event });

describe('the campaign clock and sessions', () => {
  it('starts, ends and numbers sessions with their real date, and refuses a second open session', async () => {
    const { campaign: c } = await campaign();
    expect(await ok('campaigns:get', { id: c.id })).toMatchObject({ day: 1, session: null, sessions: [] });
    const started = await ledger(c.id, { type: 'SESSION_START', title: 'The vault door', date: '2026-11-20' });
    expect(started.session).toMatchObject({ number: 1, title: 'The vault door', date: '2026-11-20', startDay: 1, endDay: null });
    expect(started.entries[0]!.log).toEqual(['The vault door starts (2026-11-20) on day 1.']);
    expect(await refused('ledger:append', { campaignId: c.id, event: { type: 'SESSION_START' } })).toBe('The vault door is still being played: end it before starting another.');

    await ledger(c.id, { type: 'ADVANCE_DAYS', days: 3 });
    const ended = await ledger(c.id, { type: 'SESSION_END', notes: 'They found the key.' });
    expect(ended).toMatchObject({ day: 4, session: null });
    const detail = await ok('campaigns:get', { id: c.id });
    expect(detail.sessions).toEqual([expect.objectContaining({ number: 1, startDay: 1, endDay: 4, notes: 'They found the key.' })]);
    expect(await refused('ledger:append', { campaignId: c.id, event: { type: 'SESSION_END' } })).toBe('No session is being played: there is nothing to end.');

    const second = await ledger(c.id, { type: 'SESSION_START' });
    expect(second.session).toMatchObject({ number: 2, title: 'Session 2', startDay: 4 });
  });

  it('refuses a malformed clock action with a sentence and writes nothing', async () => {
    const { campaign: c } = await campaign();
    const before = world();
    expect(await refused('ledger:append', { campaignId: c.id, event: { type: 'ADVANCE_DAYS', days: 0 } })).toBe('At least one day must pass.');
    expect(await refused('ledger:append', { campaignId: c.id, event: { type: 'ADVANCE_DAYS', days: 2.5 } })).toBe('Days pass in whole numbers.');
    expect(await refused('ledger:append', { campaignId: c.id, event: { type: 'SESSION_START', title: 'x'.repeat(10_000) } })).toBe('A session title has at most 120 characters.');
    expect(await refused('ledger:append', { campaignId: c.id, event: { type: 'SESSION_START', date: 'yesterday' } })).toBe('The session date must be a date like 2026-11-22.');
    expect(await refused('ledger:append', { campaignId: c.id, event: { type: 'SESSION_START', __proto__: { x: 1 }, evil: true } })).toMatch(/fields this app does not know: evil/);
    expect(await refused('ledger:append', { campaignId: c.id, event: { type: 'NAP' } })).toBe('"NAP" is not a recovery action this ruleset knows.');
    expect(world()).toEqual(before);
    expect(rows('SELECT * FROM ledger_entries')).toEqual([]);
  });

  it('puts an encounter into the session being played, starting one when none is', async () => {
    const { campaign: c } = await campaign();
    const first = await ok('encounters:create', { campaignId: c.id, name: 'Ambush' });
    const detail = await ok('campaigns:get', { id: c.id });
    expect(detail.session).toMatchObject({ number: 1, title: 'Session 1' });
    expect(rows('SELECT session_id, day FROM encounters WHERE id = ?', first.id)).toEqual([{ session_id: detail.session!.id, day: 1 }]);
    const second = await ok('encounters:create', { campaignId: c.id, name: 'Second wave' });
    expect(rows('SELECT session_id FROM encounters WHERE id = ?', second.id)).toEqual([{ session_id: detail.session!.id }]);
    // Its start can no longer be undone: the session holds encounters.
    expect(await refused('ledger:undo', { campaignId: c.id })).toBe('That session already has encounters, so its start can no longer be undone.');
  });

  it('edits a session title, date and notes', async () => {
    const { campaign: c } = await campaign();
    const { session } = await ledger(c.id, { type: 'SESSION_START' });
    const edited = await ok('sessions:update', { id: session!.id, title: 'Into the dark', notes: 'Mirah joins.', date: '2026-11-21' });
    expect(edited).toMatchObject({ title: 'Into the dark', notes: 'Mirah joins.', date: '2026-11-21' });
    expect(await refused('sessions:update', { id: session!.id, title: '   ' })).toBe('A session title cannot be empty.');
  });
});

describe('ledger undo and redo', () => {
  it('undoes each clock entry to the exact rows it replaced, and redoes it to the exact rows it wrote', async () => {
    const { campaign: c } = await campaign();
    const states = [world()];
    await ledger(c.id, { type: 'SESSION_START', title: 'One' });
    states.push(world());
    await ledger(c.id, { type: 'ADVANCE_DAYS', days: 2 });
    states.push(world());
    await ledger(c.id, { type: 'SESSION_END' });
    states.push(world());

    for (let i = states.length - 2; i >= 0; i -= 1) {
      await ok('ledger:undo', { campaignId: c.id });
      expect(world()).toEqual(states[i]);
    }
    expect(await refused('ledger:undo', { campaignId: c.id })).toBe('There is nothing to undo in the ledger.');
    for (let i = 1; i < states.length; i += 1) {
      await ok('ledger:redo', { campaignId: c.id });
      expect(world()).toEqual(states[i]);
    }
    expect(await refused('ledger:redo', { campaignId: c.id })).toBe('There is nothing to redo in the ledger.');
    // Nothing is ever deleted: every entry stays, in order.
    expect(rows('SELECT seq, type, state FROM ledger_entries ORDER BY seq')).toEqual([
      { seq: 1, type: 'SESSION_START', state: 'done' }, { seq: 2, type: 'ADVANCE_DAYS', state: 'done' }, { seq: 3, type: 'SESSION_END', state: 'done' },
    ]);
  });

  it('drops the redo stack when a new entry is appended', async () => {
    const { campaign: c } = await campaign();
    await ledger(c.id, { type: 'ADVANCE_DAYS', days: 1 });
    await ok('ledger:undo', { campaignId: c.id });
    const after = await ledger(c.id, { type: 'ADVANCE_DAYS', days: 5 });
    expect(after).toMatchObject({ day: 6, canRedo: false, canUndo: true, undoLabel: '5 days pass: day 1 → day 6.' });
    expect(rows('SELECT seq, state FROM ledger_entries ORDER BY seq')).toEqual([{ seq: 1, state: 'dropped' }, { seq: 2, state: 'done' }]);
  });

  it('survives a restart: the ledger, the clock and the redo stack are on disk', async () => {
    const { campaign: c } = await campaign();
    await ledger(c.id, { type: 'ADVANCE_DAYS', days: 2 });
    await ledger(c.id, { type: 'ADVANCE_DAYS', days: 3 });
    await ok('ledger:undo', { campaignId: c.id });
    t.reopen();
    const detail = await ok('ledger:get', { campaignId: c.id });
    expect(detail).toMatchObject({ day: 3, canUndo: true, canRedo: true, redoLabel: '3 days pass: day 3 → day 6.' });
  });
});

describe('the carry-over check at the end of a fight', () => {
  async function foughtEnigma() {
    const { campaign: c, berrik, goblin } = await campaign();
    const encounter = await ok('encounters:create', { campaignId: c.id, name: 'Bridge' });
    await ok('encounters:addFromCampaign', { id: encounter.id, pcIds: [berrik.id], npcs: [{ templateId: goblin.id, count: 1 }] });
    const started = await ok('encounters:append', { id: encounter.id, event: { type: 'START' } });
    const ids = Object.fromEntries(started.view.order.map((x) => [x.name, x.id])) as Record<string, string>;
    await ok('encounters:append', { id: encounter.id, event: { type: 'APPLY_DAMAGE', targetId: ids['Berrik'], amount: 20, source: 'trap' } });
    await ok('encounters:append', { id: encounter.id, event: { type: 'RESOLVE_PERIL', combatantId: ids['Berrik'], choice: 'survive', costText: 'a limp', injury: { mode: 'new', name: 'Sprained Ankle', category: 'speed', baseRoll: 2 } } });
    return { c, berrik, encounter };
  }

  it('shows what ending writes onto each character before it is committed, and writes nothing to show it', async () => {
    const { c, berrik, encounter } = await foughtEnigma();
    expect(await ok('encounters:carryPreview', { id: encounter.id, event: { type: 'RAISE_ESCALATION', by: 1, source: 'drums' } })).toEqual({ event: { type: 'RAISE_ESCALATION', by: 1, source: 'drums' }, carry: null });
    const before = world();
    const events = rows('SELECT count(*) AS n FROM encounter_events');
    const preview = (await ok('encounters:carryPreview', { id: encounter.id, event: { type: 'END_COMBAT', outcome: 'Victory' } })).carry;
    expect(rows('SELECT count(*) AS n FROM encounter_events')).toEqual(events);
    expect(world()).toEqual(before);
    expect(preview!.characters).toEqual([expect.objectContaining({
      characterId: berrik.id, name: 'Berrik', newRecords: [{ name: 'Sprained Ankle', category: 'speed' }],
    })]);
    expect(preview!.characters[0]!.fields).toContainEqual({ key: 'lp', label: 'LP', before: null, after: 5, editable: true });
    expect(preview!.party).toEqual([{ key: 'escalation', label: 'Escalation', before: null, after: 1 }]);
    void c;
  });

  it('takes the GM adjustment as a logged override, and undoing the end puts the old condition back', async () => {
    const { c, berrik, encounter } = await foughtEnigma();
    const ended = await ok('encounters:append', { id: encounter.id, event: { type: 'END_COMBAT', outcome: 'Victory' }, carryAdjust: [{ characterId: berrik.id, key: 'lp', value: 7 }], carryReason: 'a healing draught after the fight' });
    expect(ended.log.at(-1)!.text).toBe("GM override: Berrik's LP is carried as 7 instead of 5 (a healing draught after the fight).");
    expect((await ok('campaigns:get', { id: c.id })).characters.find((x) => x.id === berrik.id)!.condition).toMatchObject({ lp: 7 });
    await ok('encounters:undo', { id: encounter.id });
    expect((await ok('campaigns:get', { id: c.id })).characters.find((x) => x.id === berrik.id)!.condition).toEqual({});
    await ok('encounters:redo', { id: encounter.id, confirm: true });
    expect((await ok('campaigns:get', { id: c.id })).characters.find((x) => x.id === berrik.id)!.condition).toMatchObject({ lp: 7 });
  });

  it('refuses an adjustment on an event that does not end the fight, or of a field that is not carried, and writes nothing', async () => {
    const { berrik, encounter } = await foughtEnigma();
    const before = world();
    const events = rows('SELECT count(*) AS n FROM encounter_events');
    expect(await refused('encounters:append', { id: encounter.id, event: { type: 'RAISE_ESCALATION', by: 1, source: 'drums' }, carryAdjust: [{ characterId: berrik.id, key: 'lp', value: 7 }] }))
      .toBe('Only the action that ends the encounter can adjust what it carries onto the characters.');
    expect(await refused('encounters:append', { id: encounter.id, event: { type: 'END_COMBAT', outcome: 'Victory' }, carryAdjust: [{ characterId: berrik.id, key: 'gold', value: 7 }] }))
      .toBe('“gold” is not a number this encounter carries onto the character.');
    expect(await refused('encounters:append', { id: encounter.id, event: { type: 'END_COMBAT', outcome: 'Victory' }, carryAdjust: [{ characterId: berrik.id, key: 'lp', value: 1.5 }] }))
      .toBe('A carried value must be a whole number.');
    expect(world()).toEqual(before);
    expect(rows('SELECT count(*) AS n FROM encounter_events')).toEqual(events);
    // The encounter still ends normally afterwards: the refused attempts left no trace in memory either.
    const ended = await ok('encounters:append', { id: encounter.id, event: { type: 'END_COMBAT', outcome: 'Victory' } });
    expect(ended.view.phase).toBe('ended');
  });
});

describe('trying an event before sending it', () => {
  it('rolls the dice once: the tried event carries them, and appending it keeps them', async () => {
    const { campaign: c, berrik, goblin } = await campaign();
    const encounter = await ok('encounters:create', { campaignId: c.id, name: 'Dice' });
    await ok('encounters:addFromCampaign', { id: encounter.id, pcIds: [berrik.id], npcs: [{ templateId: goblin.id, count: 1 }] });
    const started = await ok('encounters:append', { id: encounter.id, event: { type: 'START' } });
    const ids = Object.fromEntries(started.view.order.map((x) => [x.name, x.id])) as Record<string, string>;
    const tried = await ok('encounters:carryPreview', { id: encounter.id, event: { type: 'ATTACK', attackerId: ids['Berrik'], targetId: ids['Goblin'], mode: 'melee', sight: 'clear', damage: 'full' } });
    expect(tried.event['attackRoll']).toMatchObject({ source: 'app', faces: [expect.any(Number)] });
    await ok('encounters:append', { id: encounter.id, event: tried.event });
    const stored = JSON.parse(String(rows("SELECT payload_json FROM encounter_events WHERE type = 'ATTACK'")[0]!['payload_json']));
    expect(stored.attackRoll).toEqual(tried.event['attackRoll']);
    expect(stored.defenceRoll).toEqual(tried.event['defenceRoll']);
    expect(await refused('encounters:carryPreview', { id: encounter.id, event: { type: 'START' } })).toMatch(/fixed once combat/);
  });
});

describe('history and timeline', () => {
  it('show the injury with its cause and treatments, the carry-over and the GM override, in each session', async () => {
    const { campaign: c, berrik, goblin } = await campaign();
    const encounter = await ok('encounters:create', { campaignId: c.id, name: 'Bridge' });
    await ok('encounters:addFromCampaign', { id: encounter.id, pcIds: [berrik.id], npcs: [{ templateId: goblin.id, count: 1 }] });
    const started = await ok('encounters:append', { id: encounter.id, event: { type: 'START' } });
    const ids = Object.fromEntries(started.view.order.map((x) => [x.name, x.id])) as Record<string, string>;
    await ok('encounters:append', { id: encounter.id, event: { type: 'APPLY_DAMAGE', targetId: ids['Berrik'], amount: 20, source: 'trap' } });
    await ok('encounters:append', { id: encounter.id, event: { type: 'RESOLVE_PERIL', combatantId: ids['Berrik'], choice: 'survive', costText: 'a limp', injury: { mode: 'new', name: 'Sprained Ankle', category: 'speed', baseRoll: 1 } } });
    await ok('encounters:append', { id: encounter.id, event: { type: 'END_COMBAT', outcome: 'Victory' }, carryAdjust: [{ characterId: berrik.id, key: 'lp', value: 6 }], carryReason: 'a draught' });
    await ledger(c.id, { type: 'SESSION_END' });
    await ledger(c.id, { type: 'SESSION_START', title: 'Road' });
    await ledger(c.id, { type: 'ADVANCE_DAYS', days: 1 });
    await ledger(c.id, { type: 'REST', characterId: berrik.id });

    const history = await ok('characters:history', { id: berrik.id });
    expect(history.records).toEqual([expect.objectContaining({
      name: 'Sprained Ankle', permanent: false, dayGained: 1, sessionGained: 1, dayHealed: 2, sessionHealed: 2,
      source: expect.objectContaining({ encounterName: 'Bridge', text: expect.stringMatching(/Berrik chooses Survive/) }),
      treatments: [expect.any(Number)],
    })]);
    // The entry is sent once, beside the records that name it.
    expect(history.entries).toEqual([{ seq: history.records[0]!.treatments[0], day: 2, text: expect.stringMatching(/Sprained Ankle healed/) }]);
    expect(history.items.map((i) => i.kind)).toEqual(['gained', 'override', 'carried', 'treated', 'healed']);
    expect(history.items.find((i) => i.kind === 'override')!.text).toBe("GM override: Berrik's LP is carried as 6 instead of 5 (a draught).");

    const timeline = await ok('campaigns:timeline', { id: c.id });
    expect(timeline.groups.map((g) => g.session?.title)).toEqual(['Session 1', 'Road']);
    expect(timeline.groups[0]!.items.map((i) => i.kind)).toEqual(['clock', 'encounter', 'gained', 'override', 'carried', 'clock']);
    expect(timeline.chart).toEqual([
      { sessionNumber: 1, label: 'S1', open: 1, gained: 1, healed: 0 },
      { sessionNumber: 2, label: 'S2', open: 0, gained: 0, healed: 1 },
    ]);

    // A rest that treats no record is the character's recovery, not a treatment.
    await ledger(c.id, { type: 'ADVANCE_DAYS', days: 1 });
    await ledger(c.id, { type: 'REST', characterId: berrik.id });
    const later = await ok('characters:history', { id: berrik.id });
    expect(later.items.map((i) => i.kind)).toEqual(['gained', 'override', 'carried', 'treated', 'healed', 'recovery']);
    expect(later.records[0]!.treatments).toEqual(history.records[0]!.treatments);
  });

  it('keep the GM override through an undo and redo of the ending, and through an export and import of the campaign', async () => {
    const { campaign: c, berrik, goblin } = await campaign();
    const encounter = await ok('encounters:create', { campaignId: c.id, name: 'Ford' });
    await ok('encounters:addFromCampaign', { id: encounter.id, pcIds: [berrik.id], npcs: [{ templateId: goblin.id, count: 1 }] });
    const started = await ok('encounters:append', { id: encounter.id, event: { type: 'START' } });
    const ids = Object.fromEntries(started.view.order.map((x) => [x.name, x.id])) as Record<string, string>;
    await ok('encounters:append', { id: encounter.id, event: { type: 'APPLY_DAMAGE', targetId: ids['Berrik'], amount: 3, source: 'a stone' } });
    await ok('encounters:append', { id: encounter.id, event: { type: 'END_COMBAT', outcome: 'Victory' }, carryAdjust: [{ characterId: berrik.id, key: 'lp', value: 9 }], carryReason: 'bandaged' });
    const overrides = async (characterId: string) => (await ok('characters:history', { id: characterId })).items.filter((i) => i.kind === 'override').map((i) => i.text);
    const override = "GM override: Berrik's LP is carried as 9 instead of 7 (bandaged).";
    expect(await overrides(berrik.id)).toEqual([override]);

    await ok('encounters:undo', { id: encounter.id });
    expect(await overrides(berrik.id)).toEqual([]);
    await ok('encounters:redo', { id: encounter.id, confirm: true });
    expect(await overrides(berrik.id)).toEqual([override]);

    const file = await ok('exports:campaign', { id: c.id });
    const imported = await ok('imports:campaign', { content: file.content });
    const copy = (await ok('campaigns:get', { id: imported.id })).characters.find((x) => x.name === 'Berrik')!;
    expect(await overrides(copy.id)).toEqual([override]);
    expect((await ok('campaigns:timeline', { id: imported.id })).groups.flatMap((g) => g.items).filter((i) => i.kind === 'override').map((i) => i.text)).toEqual([override]);
  });
});

describe('recovery while the fight that caused an injury is still running', () => {
  it('lets the fight go on, keeps the treatment, and refuses only undoing the event that made the injury', async () => {
    const { campaign: c, berrik, goblin } = await campaign();
    const encounter = await ok('encounters:create', { campaignId: c.id, name: 'Long fight' });
    await ok('encounters:addFromCampaign', { id: encounter.id, pcIds: [berrik.id], npcs: [{ templateId: goblin.id, count: 1 }] });
    const started = await ok('encounters:append', { id: encounter.id, event: { type: 'START' } });
    const ids = Object.fromEntries(started.view.order.map((x) => [x.name, x.id])) as Record<string, string>;
    await ok('encounters:append', { id: encounter.id, event: { type: 'APPLY_DAMAGE', targetId: ids['Berrik'], amount: 20, source: 'trap' } });
    await ok('encounters:append', { id: encounter.id, event: { type: 'RESOLVE_PERIL', combatantId: ids['Berrik'], choice: 'survive', costText: 'a limp', injury: { mode: 'new', name: 'Sprained Ankle', category: 'speed', baseRoll: 2 } } });
    await ledger(c.id, { type: 'REST', characterId: berrik.id });
    const treated = rows('SELECT data_json FROM injuries');
    await ok('encounters:append', { id: encounter.id, event: { type: 'RAISE_ESCALATION', by: 1, source: 'drums' } });
    await ok('encounters:undo', { id: encounter.id });
    expect(rows('SELECT data_json FROM injuries')).toEqual(treated);
    expect(await refused('encounters:undo', { id: encounter.id })).toBe('Sprained Ankle has been treated in the ledger since; undo those treatments first.');
    const ended = await ok('encounters:append', { id: encounter.id, event: { type: 'END_COMBAT', outcome: 'Victory' } });
    expect(ended.view.phase).toBe('ended');
    expect(rows('SELECT data_json FROM injuries')).toEqual(treated);
  });
});
