// Enigma's recovery between fights on the campaign ledger (RULES.md §1.6 "Recovery clock", R-E20, R-E29..R-E31):
// Breathers, Rests, Stitchers, paid healing, cures, the party's Escalation, and what the recovery screen shows.
import { describe, expect, it } from 'vitest';
import { foldChange } from '../../ledger/kernel.ts';
import { applyEvent, refusalOf } from '../../ledger/testing.ts';
import type { CampaignWorld, LedgerCharacter, LedgerRecord } from '../../ledger/types.ts';
import { resolveOptions, type OptionValues } from '../options.ts';
import { normalizeSheet } from '../sheet.ts';
import { enigmaEncounter } from './encounter.ts';
import { enigma } from './index.ts';
import type { InjuryCategory } from './injuries.ts';
import { enigmaRecovery } from './ledger.ts';
import { enigmaOptions } from './options.ts';
import { enigmaSheet } from './sheet.ts';

// ---- building campaign worlds by hand ----

/** Enigma's sheet defaults (every capacity d8) with the given dice. */
const sheet = (values: Record<string, unknown> = {}) => normalizeSheet(enigmaSheet, values);

function injury(
  id: string, characterId: string, name: string, category: InjuryCategory, restsRemaining: number,
  extra: Record<string, unknown> = {},
): LedgerRecord {
  return {
    id,
    characterId,
    name,
    category,
    // The encounter's Injury, as consequences() wrote it: its own id is the one inside the fight.
    data: { id: `inj-${id}`, name, category, baseRoll: Math.min(4, Math.max(1, restsRemaining)), multiplier: 1, restsRemaining, permanent: false, cureCondition: null, notes: '', ...extra },
    dayGained: 1,
  };
}

function member(id: string, name: string, state: Record<string, unknown> = {}, sheetValues: Record<string, unknown> = {}, records: LedgerRecord[] = []): LedgerCharacter {
  return { id, name, role: 'pc', sheet: sheet(sheetValues), state, records };
}

function world(characters: LedgerCharacter[], options: OptionValues = {}, day = 3, party: Record<string, unknown> = { escalation: 3 }): CampaignWorld {
  return { day, options: resolveOptions(enigmaOptions, options), party, characters };
}

const allD8 = { endure: 8, navigate: 8, glean: 8, attack: 8, influence: 8, manifest: 8 };

/** Berrik after a fight: Endure d10, hurt (LP 4), Glean and Attack diminished, a Speed injury and a cursed mark. */
const berrik = (records: LedgerRecord[] = [injury('ankle', 'b', 'Sprained Ankle', 'speed', 3)], state: Record<string, unknown> = {}) =>
  member('b', 'Berrik', { lp: 4, dice: { ...allD8, endure: 10, glean: 4, attack: 6 }, healingRestriction: null, journal: 'kept', ...state }, { endure: 10 }, records);
/** Lotty, the party's Stitcher: unhurt, never stored a condition. */
const lotty = () => member('l', 'Lotty');
/** Flynn, a second Stitcher. */
const flynn = () => member('f', 'Flynn', { lp: 8, dice: allD8, healingRestriction: null });
/** Null died in the last fight (Sacrifice). */
const nullPc = () => member('n', 'Null', { lp: 0, dice: allD8, healingRestriction: null, dead: true, legacy: 'sealed the tunnel' });

const run = (w: CampaignWorld, raw: unknown) => applyEvent(enigmaRecovery, w, raw);

const refusal = (w: CampaignWorld, raw: unknown) => refusalOf(enigmaRecovery, w, raw);

const character = (w: CampaignWorld, id: string) => w.characters.find((c) => c.id === id)!;
const stateOf = (w: CampaignWorld, id: string) => character(w, id).state;
const recordOf = (w: CampaignWorld, characterId: string, recordId: string) => character(w, characterId).records.find((r) => r.id === recordId);
const stat = (w: CampaignWorld, id: string, label: string) => enigmaRecovery.card(w, id).stats.find((s) => s.label === label);
const status = (w: CampaignWorld, id: string, recordId: string) => enigmaRecovery.card(w, id).records.find((r) => r.id === recordId)?.status;


// ---- the forms ----

describe('the forms and the schema', () => {
  it('is wired into the ruleset', () => {
    expect(enigma.recovery).toBe(enigmaRecovery);
  });

  it('offers every recovery action, each naming its character first; only Breather and Rest are whole-party actions', () => {
    expect(enigmaRecovery.forms.map((f) => f.type)).toEqual(['BREATHER', 'REST', 'STITCHER_TREAT', 'PAID_HEALING', 'MARK_CURE_MET', 'RESET_ESCALATION']);
    for (const form of enigmaRecovery.forms) expect(form.fields[0]).toMatchObject({ key: 'characterId', kind: 'character' });
    expect(enigmaRecovery.forms.filter((f) => f.bulk).map((f) => f.type)).toEqual(['BREATHER', 'REST']);
  });

  it('injury pickers list every injury category the encounter writes', () => {
    const pickers = enigmaRecovery.forms.flatMap((f) => f.fields.filter((field) => field.kind === 'record'));
    expect(pickers).toHaveLength(3);
    for (const picker of pickers) expect(picker.categories).toEqual(['endure', 'navigate', 'influence', 'glean', 'manifest', 'attack', 'speed', 'armourRestrictive', 'maxLp']);
  });

  it('refuses malformed events with a sentence', () => {
    const w = world([berrik()]);
    expect(refusal(w, { type: 'NAP', characterId: 'b' })).toBe('"NAP" is not a recovery action this ruleset knows.');
    expect(refusal(w, { type: 'BREATHER', characterId: 'b', raise: 'luck' })).toBe('Raise the most diminished die, a named capacity die, or none.');
    expect(refusal(w, { type: 'PAID_HEALING', characterId: 'b', recordId: 'ankle', rests: 0, settlement: 'Nexus City', majorSettlement: true, healingKind: 'natural' })).toBe('Pay for at least 1 rest.');
    expect(refusal(w, { type: 'STITCHER_TREAT', characterId: 'b', recordId: 'ankle', stitcherId: 'b' })).toBe('Say whether the healing is healing magic, a Fix or mundane care.');
    expect(refusal(w, { type: 'PAID_HEALING', characterId: 'b', recordId: 'ankle', rests: 1, settlement: '  ', majorSettlement: true, healingKind: 'natural' })).toBe('Say where the healing is bought.');
    expect(refusal(w, { type: 'REST', characterId: 'zz' })).toBe('That character is not a party member of this campaign.');
  });
});

// ---- Breather ----

describe('Breather', () => {
  it('+2 LP, the most diminished die up one step (R-E29), Escalation reset for the party (R-E20), other state kept', () => {
    const w = world([berrik()]);
    const { change, log, world: next } = run(w, { type: 'BREATHER', characterId: 'b' });
    expect(log).toEqual(['Berrik takes a Breather: +2 LP (4 → 6 of 10), Glean d4 → d6; Escalation 3 → 1 (R-E20).']);
    expect(stateOf(next, 'b')).toEqual({
      lp: 6, dice: { ...allD8, endure: 10, glean: 6, attack: 6 }, healingRestriction: null, journal: 'kept',
      recoveryDay: { day: 3, breathersTaken: 1, restTaken: false, treatedInjuryIds: [], stitchedInjuryIds: [] },
    });
    expect(change.party).toEqual({ escalation: null });
    expect(change.records).toBeUndefined(); // R-E31: Breathers never count towards injury recovery
    expect(recordOf(next, 'b', 'ankle')!.data['restsRemaining']).toBe(3);
  });

  it('raises the die the GM names, or none', () => {
    const w = world([berrik()]);
    expect(stateOf(run(w, { type: 'BREATHER', characterId: 'b', raise: 'attack' }).world, 'b')['dice']).toEqual({ ...allD8, endure: 10, glean: 4, attack: 8 });
    const none = run(w, { type: 'BREATHER', characterId: 'b', raise: 'none' });
    expect(stateOf(none.world, 'b')['dice']).toEqual({ ...allD8, endure: 10, glean: 4, attack: 6 });
    expect(none.log).toEqual(['Berrik takes a Breather: +2 LP (4 → 6 of 10); Escalation 3 → 1 (R-E20).']);
    expect(refusal(w, { type: 'BREATHER', characterId: 'b', raise: 'influence' })).toBe("Berrik's Influence die is not diminished (d8, its base is d8).");
  });

  it('R-E29 option breatherDieSteps: two steps when the campaign says so, one by default', () => {
    expect(stateOf(run(world([berrik()], { breatherDieSteps: 2 }), { type: 'BREATHER', characterId: 'b', raise: 'glean' }).world, 'b')['dice']).toMatchObject({ glean: 8 });
    expect(stateOf(run(world([berrik()]), { type: 'BREATHER', characterId: 'b', raise: 'glean' }).world, 'b')['dice']).toMatchObject({ glean: 6 });
  });

  it('two Breathers a day: the third is refused with the day, and a new day starts fresh', () => {
    let w = world([berrik()]);
    w = run(w, { type: 'BREATHER', characterId: 'b' }).world;
    w = run(w, { type: 'BREATHER', characterId: 'b' }).world;
    expect(stat(w, 'b', 'Breathers today')).toEqual({ label: 'Breathers today', value: '2/2', tone: 'warn' });
    expect(refusal(w, { type: 'BREATHER', characterId: 'b' })).toBe('Berrik has already taken two Breathers today (day 3).');
    const tomorrow = { ...w, day: 4 };
    expect(stat(tomorrow, 'b', 'Breathers today')).toEqual({ label: 'Breathers today', value: '0/2', tone: 'ok' });
    expect(stateOf(run(tomorrow, { type: 'BREATHER', characterId: 'b' }).world, 'b')['recoveryDay']).toMatchObject({ day: 4, breathersTaken: 1 });
  });

  it('a character with no stored LP is at full LP: a Breather leaves LP at max and records it', () => {
    const { log, world: next } = run(world([lotty()]), { type: 'BREATHER', characterId: 'l' });
    expect(log).toEqual(['Lotty takes a Breather: LP stays at 8 of 8; Escalation 3 → 1 (R-E20).']);
    expect(stateOf(next, 'l')).toMatchObject({ lp: 8, dice: allD8 });
  });

  it('R-E21 max LP caps the Breather: base Endure by default, the current die with maxLpDie current', () => {
    const worn = () => berrik([], { lp: 7, dice: { ...allD8, endure: 6 } });
    expect(run(world([worn()]), { type: 'BREATHER', characterId: 'b' }).log[0]).toBe('Berrik takes a Breather: +2 LP (7 → 9 of 10), Endure d6 → d8; Escalation 3 → 1 (R-E20).');
    expect(run(world([worn()], { maxLpDie: 'current' }), { type: 'BREATHER', characterId: 'b' }).log[0]).toBe(
      'Berrik takes a Breather: +1 LP (7 → 8 of 8), Endure d6 → d8; Escalation 3 → 1 (R-E20).',
    );
  });

  it('leaves the party alone when Escalation is already reset', () => {
    const { change, log } = run(world([berrik()], {}, 3, { escalation: null }), { type: 'BREATHER', characterId: 'b' });
    expect(change.party).toBeUndefined();
    expect(log[0]).toMatch(/; Escalation stays at 1\.$/);
  });
});

// ---- Rest ----

describe('Rest', () => {
  it('half the base Endure die in LP, every die back to base, Escalation reset, every injury one rest closer', () => {
    const w = world([berrik([injury('ankle', 'b', 'Sprained Ankle', 'speed', 3), injury('ribs', 'b', 'Broken Ribs', 'endure', 1)])]);
    const { change, log, world: next } = run(w, { type: 'REST', characterId: 'b' });
    expect(log).toEqual(['Berrik rests: +5 LP (4 → 9 of 10), all capacity dice back to base; Escalation 3 → 1 (R-E20); Sprained Ankle 3 → 2 rests, Broken Ribs healed.']);
    expect(stateOf(next, 'b')).toEqual({
      lp: 9, dice: { ...allD8, endure: 10 }, healingRestriction: null, journal: 'kept',
      recoveryDay: { day: 3, breathersTaken: 0, restTaken: true, treatedInjuryIds: [], stitchedInjuryIds: [] },
    });
    expect(change.party).toEqual({ escalation: null });
    // The records keep the encounter's Injury shape, with their own id, and the healed one is gone.
    expect(change.records).toEqual([
      { id: 'ankle', data: { ...w.characters[0]!.records[0]!.data, restsRemaining: 2 } },
      { id: 'ribs', data: { ...w.characters[0]!.records[1]!.data, restsRemaining: 0 }, healed: true },
    ]);
    expect(character(next, 'b').records.map((r) => r.id)).toEqual(['ankle']);
  });

  it('one Rest a day: the second is refused with the day; the next day it is allowed', () => {
    const rested = run(world([berrik()]), { type: 'REST', characterId: 'b' }).world;
    expect(stat(rested, 'b', 'Rests today')).toEqual({ label: 'Rests today', value: '1/1', tone: 'warn' });
    expect(refusal(rested, { type: 'REST', characterId: 'b' })).toBe('Berrik has already rested today (day 3).');
    expect(run({ ...rested, day: 4 }, { type: 'REST', characterId: 'b' }).log[0]).toMatch(/Sprained Ankle 2 → 1 rest\.$/);
  });

  it('counts an injury down to healed over three days of Rests', () => {
    let w = world([berrik()]);
    for (const day of [3, 4]) {
      w = run({ ...w, day }, { type: 'REST', characterId: 'b' }).world;
    }
    expect(status(w, 'b', 'ankle')).toBe('1 rest to go');
    const last = run({ ...w, day: 5 }, { type: 'REST', characterId: 'b' });
    expect(last.change.records).toEqual([{ id: 'ankle', data: expect.objectContaining({ restsRemaining: 0, id: 'inj-ankle' }), healed: true }]);
    expect(last.log[0]).toMatch(/Sprained Ankle healed\.$/);
    expect(character(last.world, 'b').records).toEqual([]);
  });

  it('permanent injuries never count down and show as permanent', () => {
    const w = world([berrik([injury('eye', 'b', 'Blinded in One Eye', 'glean', 2, { permanent: true })])]);
    const { change, world: next } = run(w, { type: 'REST', characterId: 'b' });
    expect(change.records).toBeUndefined();
    expect(enigmaRecovery.card(next, 'b').records).toEqual([{ id: 'eye', name: 'Blinded in One Eye', category: 'glean', status: 'permanent', permanent: true }]);
  });

  it('an LP-reducing injury lowers max LP (R-E21) and stops capping once it heals that night', () => {
    const feverish = (rests: number) => world([berrik([injury('fever', 'b', 'Fever', 'maxLp', rests)], { lp: 6 })]);
    expect(stat(feverish(2), 'b', 'LP')).toEqual({ label: 'LP', value: '6/7', tone: 'warn' });
    expect(stateOf(run(feverish(2), { type: 'REST', characterId: 'b' }).world, 'b')['lp']).toBe(7);
    expect(stateOf(run(feverish(1), { type: 'REST', characterId: 'b' }).world, 'b')['lp']).toBe(10);
  });

  it('R-E28 option injuryStacking: two LP reductions cut max LP by 6, or by 3 when effects do not stack', () => {
    const twice = [injury('fever', 'b', 'Fever', 'maxLp', 2), injury('bleed', 'b', 'Internal Bleeding', 'maxLp', 2)];
    expect(stat(world([berrik(twice, { lp: 3 })]), 'b', 'LP')!.value).toBe('3/4');
    expect(stat(world([berrik(twice, { lp: 3 })], { injuryStacking: false }), 'b', 'LP')!.value).toBe('3/7');
  });
});

// ---- Stitcher ----

describe('Stitcher treatment (R-E30)', () => {
  const hurt = () => berrik([injury('ankle', 'b', 'Sprained Ankle', 'speed', 3), injury('ribs', 'b', 'Broken Ribs', 'endure', 2)]);
  const treat = (recordId: string, stitcherId = 'l', healingKind = 'natural') => ({ type: 'STITCHER_TREAT', characterId: 'b', recordId, stitcherId, healingKind });

  it('ENIGMA-24: a day of treatment takes 3 → 2, that night\'s Rest 2 → 1, a second treatment the same day is refused', () => {
    const w = world([berrik(), flynn(), lotty()]);
    const treated = run(w, treat('ankle'));
    expect(treated.log).toEqual(["Lotty treats Berrik's Sprained Ankle: 3 → 2 rests left."]);
    expect(treated.change.records).toEqual([{ id: 'ankle', data: { ...w.characters[0]!.records[0]!.data, restsRemaining: 2 } }]);
    // The patient remembers the treated injury, the Stitcher what they treated; nothing else changes.
    expect(stateOf(treated.world, 'b')).toEqual({ ...stateOf(w, 'b'), recoveryDay: { day: 3, breathersTaken: 0, restTaken: false, treatedInjuryIds: ['ankle'], stitchedInjuryIds: [] } });
    expect(stateOf(treated.world, 'l')).toEqual({ recoveryDay: { day: 3, breathersTaken: 0, restTaken: false, treatedInjuryIds: [], stitchedInjuryIds: ['ankle'] } });
    expect(status(treated.world, 'b', 'ankle')).toBe('2 rests to go; treated today');
    const slept = run(treated.world, { type: 'REST', characterId: 'b' }).world;
    expect(recordOf(slept, 'b', 'ankle')!.data['restsRemaining']).toBe(1);
    expect(refusal(slept, treat('ankle', 'f'))).toBe(
      "Berrik's Sprained Ankle has already been treated today (day 3): Stitchers take off at most one rest per injury a day (R-E30).",
    );
    // The next day it may be treated again, and heals.
    const healed = run({ ...slept, day: 4 }, treat('ankle', 'f'));
    expect(healed.change.records).toEqual([{ id: 'ankle', data: expect.objectContaining({ restsRemaining: 0 }), healed: true }]);
    expect(healed.log).toEqual(["Flynn treats Berrik's Sprained Ankle: healed."]);
  });

  it('R-E30 option stitcherSeveralInjuries: one Stitcher treats several injuries a day by default, only one with it off', () => {
    const on = run(run(world([hurt(), lotty()]), treat('ankle')).world, treat('ribs')).world;
    expect(character(on, 'b').records.map((r) => r.data['restsRemaining'])).toEqual([2, 1]);
    const offWorld = run(world([hurt(), lotty(), flynn()], { stitcherSeveralInjuries: false }), treat('ankle')).world;
    expect(refusal(offWorld, treat('ribs'))).toBe('Lotty has already treated an injury today (day 3): one injury a day per Stitcher (R-E30).');
    expect(recordOf(run(offWorld, treat('ribs', 'f')).world, 'b', 'ribs')!.data['restsRemaining']).toBe(1);
  });

  it('a Stitcher may treat their own injury, keeping one day record', () => {
    const { log, change } = run(world([hurt()]), treat('ankle', 'b'));
    expect(log).toEqual(['Berrik treats their own Sprained Ankle: 3 → 2 rests left.']);
    expect(change.characters).toEqual([{ id: 'b', state: expect.objectContaining({ recoveryDay: expect.objectContaining({ treatedInjuryIds: ['ankle'], stitchedInjuryIds: ['ankle'] }) }) }]);
  });

  it('refuses a Stitcher who is not in the party or is dead, and an injury that is not running', () => {
    const w = world([hurt(), nullPc()]);
    expect(refusal(w, treat('ankle', 'zz'))).toBe('That Stitcher is not a party member of this campaign.');
    expect(refusal(w, treat('ankle', 'n'))).toBe('Null is dead (Sacrifice) and cannot treat anyone.');
    expect(refusal(w, treat('nope', 'b'))).toBe('Berrik has no such injury.');
  });

  it('ENIGMA-18: a Fixes-only character refuses a Stitcher\'s healing magic, but a Fix or mundane care works', () => {
    const cursed = world([berrik(undefined, { healingRestriction: 'fixesOnly' }), lotty()]);
    expect(refusal(cursed, treat('ankle', 'l', 'magic'))).toBe('Berrik can receive no healing magic except Fixes.');
    expect(recordOf(run(cursed, treat('ankle', 'l', 'fix')).world, 'b', 'ankle')!.data['restsRemaining']).toBe(2);
    expect(recordOf(run(world([berrik(), lotty()]), treat('ankle', 'l', 'magic')).world, 'b', 'ankle')!.data['restsRemaining']).toBe(2);
  });
});

// ---- paid healing ----

describe('paid healing', () => {
  const hurt = () => berrik([injury('ankle', 'b', 'Sprained Ankle', 'speed', 6)]);
  const buy = (extra: Record<string, unknown> = {}) => ({
    type: 'PAID_HEALING', characterId: 'b', recordId: 'ankle', rests: 2, settlement: 'Nexus City', majorSettlement: true, healingKind: 'natural', ...extra,
  });

  it('one rest off per Wealth Point in a major settlement; the Wealth the GM types checks the cost, and no balance is logged (the campaign keeps none)', () => {
    const { log, change } = run(world([hurt()]), buy({ wealthAvailable: 5 }));
    expect(log).toEqual(['Berrik pays 2 Wealth Points in Nexus City: Sprained Ankle 6 → 4 rests left.']);
    expect(change).toEqual({ records: [{ id: 'ankle', data: expect.objectContaining({ restsRemaining: 4 }) }] });
    expect(run(world([hurt()]), buy()).log).toEqual(['Berrik pays 2 Wealth Points in Nexus City: Sprained Ankle 6 → 4 rests left.']);
  });

  it('may pay off the whole injury at once, but not more than it needs or more than the Wealth there is', () => {
    expect(run(world([hurt()]), buy({ rests: 6 })).change.records).toEqual([{ id: 'ankle', data: expect.objectContaining({ restsRemaining: 0 }), healed: true }]);
    expect(refusal(world([hurt()]), buy({ rests: 7 }))).toBe("Berrik's Sprained Ankle needs only 6 rests more; spend at most 6 Wealth Points.");
    expect(refusal(world([hurt()]), buy({ rests: 3, wealthAvailable: 2 }))).toBe('Berrik has 2 Wealth Points; this healing costs 3.');
  });

  it('only in a major settlement', () => {
    expect(refusal(world([hurt()]), buy({ settlement: 'Dust Hollow', majorSettlement: false }))).toBe('Paid healing needs a major settlement such as Nexus City.');
  });

  it('an illegal clinic charges its price, rounded up, and brings its complication', () => {
    const { log, change } = run(world([hurt()]), buy({ rests: 3, wealthAvailable: 9, illegalClinic: true, pricePercent: 150, complication: 'The surgeon owes the Vipers.' }));
    expect(log).toEqual([
      'Berrik pays 5 Wealth Points at an illegal clinic in Nexus City (price ×1.5): Sprained Ankle 6 → 3 rests left. Complication: The surgeon owes the Vipers.',
    ]);
    expect(change.records).toEqual([{ id: 'ankle', data: expect.objectContaining({ restsRemaining: 3 }) }]);
    expect(refusal(world([hurt()]), buy({ pricePercent: 200 }))).toBe('Only an illegal clinic sets its own price: tick Illegal clinic or clear the price.');
  });

  it('a complication at a legal service is logged too', () => {
    expect(run(world([hurt()]), buy({ complication: 'The corp lab keeps a blood sample.' })).log).toEqual([
      'Berrik pays 2 Wealth Points in Nexus City: Sprained Ankle 6 → 4 rests left.',
      'Complication: The corp lab keeps a blood sample.',
    ]);
  });

  it('refuses permanent injuries, and healing magic to a Fixes-only character (ENIGMA-18)', () => {
    const scarred = world([berrik([injury('eye', 'b', 'Blinded in One Eye', 'glean', 3, { permanent: true })])]);
    expect(refusal(scarred, buy({ recordId: 'eye' }))).toBe("Berrik's Blinded in One Eye is permanent: no treatment shortens it.");
    const cursed = world([berrik([injury('ankle', 'b', 'Sprained Ankle', 'speed', 6)], { healingRestriction: 'fixesOnly' })]);
    expect(refusal(cursed, buy({ healingKind: 'magic' }))).toBe('Berrik can receive no healing magic except Fixes.');
    expect(run(cursed, buy({ healingKind: 'natural' })).change.records).toHaveLength(1);
  });
});

// ---- semi-permanent injuries ----

describe('a cure condition', () => {
  const nerve = () => injury('nerve', 'b', 'Nerve Damage', 'endure', 2, { cureCondition: 'an Exaltium graft' });

  it('waits for its cure: no Rest, Stitcher or payment shortens it until the GM marks the cure met', () => {
    const w = world([berrik([nerve()]), lotty()]);
    expect(status(w, 'b', 'nerve')).toBe('waiting for its cure: an Exaltium graft (then 2 rests)');
    expect(run(w, { type: 'REST', characterId: 'b' }).change.records).toBeUndefined();
    expect(refusal(w, { type: 'STITCHER_TREAT', characterId: 'b', recordId: 'nerve', stitcherId: 'l', healingKind: 'natural' })).toBe(
      "Berrik's Nerve Damage heals only after its cure (an Exaltium graft); mark the cure as met first.",
    );
    const cured = run(w, { type: 'MARK_CURE_MET', characterId: 'b', recordId: 'nerve', note: 'grafted at the Ashgate lab' });
    expect(cured.log).toEqual(["Berrik's Nerve Damage: its cure (an Exaltium graft) is met: grafted at the Ashgate lab; it now heals in 2 rests."]);
    expect(cured.change.records).toEqual([{ id: 'nerve', data: { ...nerve().data, cureMet: true } }]);
    expect(status(cured.world, 'b', 'nerve')).toBe('2 rests to go (cure met)');
    expect(recordOf(run(cured.world, { type: 'REST', characterId: 'b' }).world, 'b', 'nerve')!.data['restsRemaining']).toBe(1);
  });

  it('refuses an injury with no cure, a cure already met, and a permanent injury', () => {
    const w = world([berrik([injury('ankle', 'b', 'Sprained Ankle', 'speed', 3), injury('eye', 'b', 'Blinded in One Eye', 'glean', 3, { permanent: true }), nerve()])]);
    expect(refusal(w, { type: 'MARK_CURE_MET', characterId: 'b', recordId: 'ankle' })).toBe("Berrik's Sprained Ankle needs no special cure: it heals with rests.");
    expect(refusal(w, { type: 'MARK_CURE_MET', characterId: 'b', recordId: 'eye' })).toBe("Berrik's Blinded in One Eye is permanent: no cure heals it.");
    const cured = run(w, { type: 'MARK_CURE_MET', characterId: 'b', recordId: 'nerve' }).world;
    expect(refusal(cured, { type: 'MARK_CURE_MET', characterId: 'b', recordId: 'nerve' })).toBe("Berrik's Nerve Damage's cure (an Exaltium graft) is already marked as met.");
  });
});

// ---- Escalation ----

describe('Escalation (R-E20)', () => {
  it('an explicit reset stores null for the party, and refuses when nothing carries', () => {
    const w = world([berrik()], {}, 3, { escalation: 4, banner: 'Red Hand' });
    const reset = run(w, { type: 'RESET_ESCALATION', characterId: 'b', reason: 'a long ride back to town' });
    expect(reset.change).toEqual({ party: { escalation: null, banner: 'Red Hand' } });
    expect(reset.log).toEqual(["Berrik calls for a reset: the party's Escalation 4 → 1 (R-E20) (a long ride back to town)."]);
    expect(refusal(reset.world, { type: 'RESET_ESCALATION', characterId: 'b' })).toBe('Escalation is already back to 1: nothing has raised it since the last reset.');
    expect(run(world([berrik()], {}, 3, { escalation: 1 }), { type: 'RESET_ESCALATION', characterId: 'b' }).log).toEqual([
      "Berrik calls for a reset: the party's Escalation stays at 1 and no longer carries into the next fight (R-E20).",
    ]);
  });

  it('the party figures show what the next fight opens at under escalationAtStart', () => {
    expect(enigmaRecovery.partyStats!(world([], {}, 3, { escalation: 3 }))).toEqual([
      { label: 'Escalation', value: '3' },
      { label: 'Next fight opens at', value: 'Escalation 3' },
    ]);
    expect(enigmaRecovery.partyStats!(world([], { escalationAtStart: 'carryPlusOne' }, 3, { escalation: 3 }))[1]!.value).toBe('Escalation 4');
    expect(enigmaRecovery.partyStats!(world([], { escalationAtStart: 'alwaysOne' }, 3, { escalation: 3 }))[1]!.value).toBe('Escalation 1');
    expect(enigmaRecovery.partyStats!(world([], { escalationAtStart: 'carryPlusOne' }, 3, { escalation: null }))).toEqual([
      { label: 'Escalation', value: '1 (reset)' },
      { label: 'Next fight opens at', value: 'Escalation 1' },
    ]);
  });
});

// ---- the dead ----

describe('the dead', () => {
  it('recover nothing: every action is refused with a sentence, and the card says why', () => {
    const w = world([nullPc(), lotty()]);
    for (const raw of [
      { type: 'BREATHER', characterId: 'n' },
      { type: 'REST', characterId: 'n' },
      { type: 'STITCHER_TREAT', characterId: 'n', recordId: 'x', stitcherId: 'l', healingKind: 'fix' },
      { type: 'PAID_HEALING', characterId: 'n', recordId: 'x', rests: 1, settlement: 'Nexus City', majorSettlement: true, healingKind: 'natural' },
      { type: 'MARK_CURE_MET', characterId: 'n', recordId: 'x' },
      { type: 'RESET_ESCALATION', characterId: 'n' },
    ]) {
      expect(refusal(w, raw)).toBe('Null is dead (Sacrifice) and recovers nothing.');
    }
    expect(enigmaRecovery.card(w, 'n').out).toBe('Dead (Sacrifice): sealed the tunnel');
    expect(enigmaRecovery.card(w, 'l').out).toBeNull();
  });
});

// ---- the whole party ----

describe('whole-party actions', () => {
  it('the party Rests: each living member recovers, the dead one is skipped with the reason, Escalation resets once', () => {
    const w = world([berrik(), flynn(), nullPc()]);
    const { change, log, world: next } = run(w, { type: 'PARTY', action: { type: 'REST' }, characterIds: ['b', 'f', 'n'] });
    expect(log).toEqual([
      'Berrik rests: +5 LP (4 → 9 of 10), all capacity dice back to base; Escalation 3 → 1 (R-E20); Sprained Ankle 3 → 2 rests.',
      'Flynn rests: LP stays at 8 of 8, all capacity dice back to base; Escalation stays at 1.',
      'Skipped: Null is dead (Sacrifice) and recovers nothing.',
    ]);
    expect(change.party).toEqual({ escalation: null });
    expect(change.characters!.map((c) => c.id)).toEqual(['b', 'f']);
    expect(stateOf(next, 'n')).toEqual(stateOf(w, 'n'));
    // Berrik already rested: a second party Rest skips him and still rests nobody else twice.
    expect(refusal(next, { type: 'PARTY', action: { type: 'REST' }, characterIds: ['b', 'f'] })).toBe(
      'Nobody in the party can do that now: Berrik has already rested today (day 3). Flynn has already rested today (day 3).',
    );
  });

  it('the party takes a Breather, each raising their own most diminished die', () => {
    const worn = member('f', 'Flynn', { lp: 8, dice: { ...allD8, manifest: 4 }, healingRestriction: null });
    const { world: next } = run(world([berrik(), worn]), { type: 'PARTY', action: { type: 'BREATHER', raise: 'auto' }, characterIds: ['b', 'f'] });
    expect(stateOf(next, 'b')['dice']).toMatchObject({ glean: 6, attack: 6 });
    expect(stateOf(next, 'f')['dice']).toMatchObject({ manifest: 6 });
  });

  it('Stitcher treatment, paid healing, cures and the Escalation reset are not whole-party actions', () => {
    expect(refusal(world([berrik()]), { type: 'PARTY', action: { type: 'STITCHER_TREAT', recordId: 'ankle', stitcherId: 'b', healingKind: 'fix' }, characterIds: ['b'] })).toBe(
      '"STITCHER_TREAT" cannot be taken by the whole party at once.',
    );
    expect(refusal(world([berrik()]), { type: 'PARTY', action: { type: 'RESET_ESCALATION' }, characterIds: ['b'] })).toBe(
      '"RESET_ESCALATION" cannot be taken by the whole party at once.',
    );
  });
});

// ---- R-E31: rests and days ----

describe('R-E31 rests and days', () => {
  it('by default days passing change nothing: injuries count Rests', () => {
    expect(enigmaRecovery.daysPassed!(world([berrik()]), 3)).toBeNull();
  });

  it('with restsAreDays off a Rest leaves injuries alone and each day passing counts them down instead', () => {
    const w = world([berrik([injury('ankle', 'b', 'Sprained Ankle', 'speed', 3), injury('eye', 'b', 'Blinded in One Eye', 'glean', 2, { permanent: true })]), flynn(), nullPc()], { restsAreDays: false });
    const rested = run(w, { type: 'REST', characterId: 'b' });
    expect(rested.change.records).toBeUndefined();
    expect(rested.log[0]).toBe('Berrik rests: +5 LP (4 → 9 of 10), all capacity dice back to base; Escalation 3 → 1 (R-E20); injuries count days, not Rests (R-E31).');
    expect(status(w, 'b', 'ankle')).toBe('3 days to go');
    const twoDays = enigmaRecovery.daysPassed!(w, 2)!;
    expect(twoDays.log).toEqual(['2 days pass for Berrik (R-E31: injuries count days): Sprained Ankle 3 → 1 day.']);
    expect(twoDays.change).toEqual({ records: [{ id: 'ankle', data: expect.objectContaining({ restsRemaining: 1 }) }] });
    const healed = enigmaRecovery.daysPassed!(foldChange(w, twoDays.change), 5)!;
    expect(healed.change.records).toEqual([{ id: 'ankle', data: expect.objectContaining({ restsRemaining: 0 }), healed: true }]);
    expect(healed.log).toEqual(['5 days pass for Berrik (R-E31: injuries count days): Sprained Ankle healed.']);
    expect(enigmaRecovery.daysPassed!(foldChange(w, healed.change), 1)).toBeNull(); // only the permanent injury is left
  });
});

// ---- the recovery screen ----

describe('the card', () => {
  it('shows LP, each die current/base, the day\'s Breathers and Rests, the restriction, and each injury', () => {
    const w = world([
      berrik([injury('ankle', 'b', 'Sprained Ankle', 'speed', 3), injury('ribs', 'b', 'Broken Ribs', 'endure', 1), injury('fever', 'b', 'Fever', 'maxLp', 2)], { healingRestriction: 'fixesOnly' }),
    ]);
    const card = enigmaRecovery.card(w, 'b');
    expect(card.stats).toEqual([
      { label: 'LP', value: '4/7', tone: 'warn' },
      { label: 'Endure', value: 'd10/d10', tone: 'ok' },
      { label: 'Navigate', value: 'd8/d8', tone: 'ok' },
      { label: 'Glean', value: 'd4/d8', tone: 'warn' },
      { label: 'Attack', value: 'd6/d8', tone: 'warn' },
      { label: 'Influence', value: 'd8/d8', tone: 'ok' },
      { label: 'Manifest', value: 'd8/d8', tone: 'ok' },
      { label: 'Breathers today', value: '0/2', tone: 'ok' },
      { label: 'Rests today', value: '0/1', tone: 'ok' },
    ]);
    expect(card.marks).toEqual(['Fixes only: no healing magic but Fixes (ENIGMA-18)', 'Max LP −3 while injured (R-E21)', 'Speed 6 (−2 from injuries)']);
    expect(card.records).toEqual([
      { id: 'ankle', name: 'Sprained Ankle', category: 'speed', status: '3 rests to go' },
      { id: 'ribs', name: 'Broken Ribs', category: 'endure', status: '1 rest to go' },
      { id: 'fever', name: 'Fever', category: 'maxLp', status: '2 rests to go' },
    ]);
    expect(card.out).toBeNull();
  });

  it('LP tone: ok at full, bad at half or below', () => {
    expect(stat(world([lotty()]), 'l', 'LP')).toEqual({ label: 'LP', value: '8/8', tone: 'ok' });
    expect(stat(world([berrik([], { lp: 5 })]), 'b', 'LP')).toEqual({ label: 'LP', value: '5/10', tone: 'bad' });
  });
});

// ---- the next fight reads what recovery wrote ----

describe('handing back to the encounter', () => {
  it('the rested state and the counted-down injury are what the next fight\'s carriedIn reads and its schema accepts', () => {
    const w = world([berrik([injury('ankle', 'b', 'Sprained Ankle', 'speed', 3), injury('nerve', 'b', 'Nerve Damage', 'endure', 2, { cureCondition: 'an Exaltium graft' })])]);
    let next = run(w, { type: 'MARK_CURE_MET', characterId: 'b', recordId: 'nerve' }).world;
    next = run(next, { type: 'REST', characterId: 'b' }).world;
    const berrikNow = character(next, 'b');
    const carried = enigmaEncounter.carriedIn!(berrikNow.state, berrikNow.records.map((r) => r.data));
    expect(carried).toEqual({
      lp: 9,
      dice: { ...allD8, endure: 10 },
      injuries: [expect.objectContaining({ id: 'inj-ankle', restsRemaining: 2 }), expect.objectContaining({ id: 'inj-nerve', restsRemaining: 1, cureMet: true })],
    });
    const seed = { id: 'c1', name: 'Berrik', side: 'party', characterId: 'b', sheet: berrikNow.sheet, carried };
    expect(enigmaEncounter.eventSchema.safeParse({ type: 'ADD_COMBATANTS', combatants: [seed] }).success).toBe(true);
  });
});
