// Cairn-Errant's recovery between fights through the campaign ledger (RULES.md §4.4 steps 10–11, §4.6, R-C24, R-C25,
// R-C27): parsed, applied and folded as the ledger does it.
import { describe, expect, it } from 'vitest';
import { foldChange } from '../../ledger/kernel.ts';
import { applyEvent, refusalOf } from '../../ledger/testing.ts';
import type { CampaignWorld, LedgerCharacter, LedgerRecord } from '../../ledger/types.ts';
import { resolveOptions, type OptionValues } from '../options.ts';
import { normalizeSheet } from '../sheet.ts';
import { CARE_DAYS, cairnErrantRecovery as rules } from './ledger.ts';
import { cairnErrantOptions } from './options.ts';
import { cairnErrantSheet } from './sheet.ts';
import type { Wound } from './rules.ts';

function pc(id: string, name: string, state: Record<string, unknown> = {}, records: LedgerRecord[] = [], sheet: Record<string, unknown> = {}): LedgerCharacter {
  return { id, name, role: 'pc', sheet: normalizeSheet(cairnErrantSheet, { hpMax: 6, hp: 6, strMax: 12, str: 12, ...sheet }), state, records };
}

function world(characters: LedgerCharacter[], options: OptionValues = {}, day = 3): CampaignWorld {
  return { day, options: resolveOptions(cairnErrantOptions, options), party: {}, characters };
}

const wound = (id: string, severity: Wound['severity'], extra: Partial<Wound> = {}, characterId = 'bram'): LedgerRecord => ({
  id: `enc1:${id}`, characterId, name: `${severity[0]!.toUpperCase()}${severity.slice(1)} ${extra.type === 'burns' ? 'burns' : 'frostbite'}`, category: 'wound',
  data: { id, kind: 'wound', type: 'frostbite', severity, attribute: null, source: 'the pass', trainedBack: false, ...extra }, dayGained: 1,
});
const injury = (id: string, location: string, name: string, characterId = 'bram'): LedgerRecord => ({
  id: `enc1:${id}`, characterId, name, category: 'injury', data: { id, kind: 'injury', location, name }, dayGained: 1,
});

const run = (w: CampaignWorld, raw: unknown) => applyEvent(rules, w, raw);

const refusal = (w: CampaignWorld, raw: unknown) => refusalOf(rules, w, raw);

const stateOf = (w: CampaignWorld, id = 'bram') => w.characters.find((c) => c.id === id)!.state;
const recordsOf = (w: CampaignWorld, id = 'bram') => w.characters.find((c) => c.id === id)!.records.map((r) => r.id);
const stat = (w: CampaignWorld, label: string, id = 'bram') => rules.card(w, id).stats.find((s) => s.label === label)?.value;

describe('rests (base Cairn, R-C25, §4.4 step 11)', () => {
  it('catching a breath restores HP and keeps every other stored field', () => {
    const w = world([pc('bram', 'Bram', { hp: 2, fatigue: 2, gearSlots: 3, somethingElse: 'kept' })]);
    const { world: after, log } = run(w, { type: 'CATCH_BREATH', characterId: 'bram' });
    expect(log).toEqual(['Bram catches their breath: HP 2 → 6.']);
    expect(stateOf(after)).toEqual({ hp: 6, fatigue: 2, gearSlots: 3, somethingElse: 'kept' });
    expect(refusal(after, { type: 'CATCH_BREATH', characterId: 'bram' })).toBe('Bram has all 6 HP already.');
  });

  it('a night\'s rest in a safe place clears Fatigue, restores HP and wakes the unconscious, once a day', () => {
    const w = world([pc('bram', 'Bram', { hp: 1, fatigue: 3, unconscious: true })], {}, 4);
    expect(refusal(w, { type: 'NIGHT_REST', characterId: 'bram', safe: false })).toBe("Fatigue clears only after a full night's rest in a safe place (R-C25): Bram cannot rest here.");
    const { world: rested, log } = run(w, { type: 'NIGHT_REST', characterId: 'bram', safe: true });
    expect(log).toEqual(['Bram rests the night somewhere safe: HP 1 → 6, Fatigue 3 → 0, awake again (R-C25).']);
    expect(stateOf(rested)).toMatchObject({ hp: 6, fatigue: 0, unconscious: false, recoveryDay: { day: 4, nightRest: true } });
    expect(stat(rested, 'Night\'s rest today')).toBe('1/1');
    const tired = { ...rested, characters: rested.characters.map((c) => ({ ...c, state: { ...c.state, fatigue: 2 } })) };
    expect(refusal(tired, { type: 'NIGHT_REST', characterId: 'bram', safe: true })).toBe("Bram has already had a night's rest today (day 4): move the campaign clock on to rest another night.");
    const nextDay = { ...tired, day: 5 };
    expect(stat(nextDay, 'Night\'s rest today')).toBe('0/1');
    expect(run(nextDay, { type: 'NIGHT_REST', characterId: 'bram', safe: true }).log).toEqual(['Bram rests the night somewhere safe: Fatigue 2 → 0 (R-C25).']);
  });

  it('an extended rest restores DEX and WIL (R-C24), STR only with a healer', () => {
    const w = world([pc('bram', 'Bram', { str: 7, dex: 0, wil: 4 })]);
    const alone = run(w, { type: 'EXTENDED_REST', characterId: 'bram', healer: false });
    expect(alone.log).toEqual(['Bram takes an extended rest: DEX 0 → 10, WIL 4 → 10 (R-C24, R-C25).']);
    expect(stateOf(alone.world)).toMatchObject({ str: 7, dex: 10, wil: 10 });
    expect(refusal(alone.world, { type: 'EXTENDED_REST', characterId: 'bram', healer: false })).toBe("Bram's DEX and WIL are already at their maximum; only a healer's care restores STR 7/12.");
    const healed = run(w, { type: 'EXTENDED_REST', characterId: 'bram', healer: true });
    expect(healed.log).toEqual(['Bram takes an extended rest with a healer: STR 7 → 12, DEX 0 → 10, WIL 4 → 10 (R-C24, R-C25).']);
  });

  it('the whole party takes a night\'s rest; the dead are skipped with the reason', () => {
    const w = world([pc('bram', 'Bram', { fatigue: 2 }), pc('cora', 'Cora', { dead: true, str: 0 }), pc('mirah', 'Mirah', { hp: 3 })]);
    const { world: after, log, outcome } = run(w, { type: 'PARTY', action: { type: 'NIGHT_REST', safe: true }, characterIds: ['bram', 'cora', 'mirah'] });
    expect(log).toEqual([
      'Bram rests the night somewhere safe: Fatigue 2 → 0 (R-C25).',
      'Mirah rests the night somewhere safe: HP 3 → 6 (R-C25).',
      'Skipped: Cora is dead. Nothing heals the dead.',
    ]);
    expect(outcome.change.characters!.map((c) => c.id)).toEqual(['bram', 'mirah']);
    expect(stateOf(after, 'cora')).toEqual({ dead: true, str: 0 });
    expect(refusal(w, { type: 'PARTY', action: { type: 'TREAT' }, characterIds: ['bram'] })).toBe('"TREAT" cannot be taken by the whole party at once.');
    expect(refusal(w, { type: 'PARTY', action: { type: 'CATCH_BREATH' }, characterIds: ['bram', 'cora'] })).toBe('Nobody in the party can do that now: Bram has all 6 HP already. Cora is dead. Nothing heals the dead.');
  });
});

describe('the death clock and critical damage (§4.4 step 10, R-C27)', () => {
  const dying = (extra: Record<string, unknown> = {}) => pc('bram', 'Bram', { hp: 0, str: 4, incapacitated: true, deathClockMinutes: 60, failedCriticalSave: true, ...extra });

  it('minutes run the clock down; at 0 the PC dies and recovers nothing after', () => {
    const w = world([dying()]);
    expect(rules.card(w, 'bram').out).toBe('Dying: 60 minutes left unless treated');
    const half = run(w, { type: 'DEATH_CLOCK', characterId: 'bram', minutes: 40 });
    expect(half.log).toEqual(['Bram is dying: 20 minutes left unless treated.']);
    const gone = run(half.world, { type: 'DEATH_CLOCK', characterId: 'bram', minutes: 20 });
    expect(gone.log).toEqual(['Bram dies of their wounds: the hour ran out untreated.']);
    expect(stateOf(gone.world)).toMatchObject({ dead: true, deathClockMinutes: 0 });
    expect(rules.card(gone.world, 'bram').out).toBe('Dead');
    expect(refusal(gone.world, { type: 'TREAT', characterId: 'bram' })).toBe('Bram is dead. Nothing heals the dead.');
    expect(refusal(w, { type: 'CATCH_BREATH', characterId: 'bram' })).toBe('Bram is dying: treat the wounds first.');
  });

  it('a day passing kills an untreated dying PC, and leaves a treated one alone', () => {
    const w = world([dying(), pc('mirah', 'Mirah', { incapacitated: true, treated: true, deathClockMinutes: 0 })]);
    const outcome = rules.daysPassed!(w, 1)!;
    expect(outcome.log).toEqual(['Bram dies of their wounds: the hour ran out untreated.']);
    expect(outcome.change.characters).toEqual([{ id: 'bram', state: expect.objectContaining({ dead: true, deathClockMinutes: 0 }) }]);
    expect(rules.daysPassed!(world([pc('bram', 'Bram')]), 3)).toBeNull();
  });

  it('by default treatment stops the clock and the PC stays out until the GM rules them recovered', () => {
    const w = world([dying()]);
    expect(refusal(w, { type: 'RECOVER', characterId: 'bram' })).toBe('Bram must be treated before recovering (R-C27).');
    const treated = run(w, { type: 'TREAT', characterId: 'bram' });
    expect(treated.log).toEqual(['Bram is treated: the death clock stops; Bram stays out until healed (R-C27).']);
    expect(stateOf(treated.world)).toMatchObject({ incapacitated: true, treated: true, deathClockMinutes: 0 });
    expect(rules.card(treated.world, 'bram').out).toBe('Incapacitated: treated, out until healed (R-C27)');
    expect(refusal(treated.world, { type: 'TREAT', characterId: 'bram' })).toBe('Bram is not dying: there is no death clock to stop.');
    const recovered = run(treated.world, { type: 'RECOVER', characterId: 'bram' });
    expect(recovered.log).toEqual(['Bram recovers from the critical damage and can act again (R-C27).']);
    expect(stateOf(recovered.world)).toMatchObject({ incapacitated: false, treated: false, failedCriticalSave: false });
    expect(rules.card(recovered.world, 'bram').out).toBeNull();
  });

  it('with R-C27 off, a treated PC can act again at once; only the impaired attacks wait for Recover', () => {
    const w = world([dying()], { treatedStaysOut: false });
    const treated = run(w, { type: 'TREAT', characterId: 'bram' });
    expect(treated.log).toEqual(['Bram is treated: the death clock stops; Bram can act again (R-C27).']);
    expect(stateOf(treated.world)).toMatchObject({ incapacitated: false, treated: true });
    expect(rules.card(treated.world, 'bram').out).toBeNull();
    expect(rules.card(treated.world, 'bram').marks).toContain('Impaired attacks: failed a Critical Damage save (attacks against are likely enhanced)');
  });
});

describe('hit-location Injuries (§4.4 step 10, R-C6)', () => {
  it('healing the last leg Injury frees the slot and lifts the initiative disadvantage', () => {
    const w = world([pc('bram', 'Bram', { nextInitiativeDisadvantage: true }, [injury('i1', 'rightLeg', 'Right leg injury'), wound('w1', 'light')])]);
    expect(rules.card(w, 'bram').marks).toEqual(expect.arrayContaining(['Next initiative save at disadvantage (R-C6)', 'No fast movement: no quick-turn moves, no two-band moves (R-C6b)']));
    expect(refusal(w, { type: 'HEAL_INJURY', characterId: 'bram', recordId: 'enc1:w1' })).toBe("That is not one of Bram's running Injuries.");
    const { outcome, world: after } = run(w, { type: 'HEAL_INJURY', characterId: 'bram', recordId: 'enc1:i1' });
    expect(outcome.log).toEqual(["Bram's right leg injury heals: its slot is free again; the next initiative save is no longer at disadvantage (R-C6)."]);
    expect(outcome.change.records).toEqual([{ id: 'enc1:i1', data: w.characters[0]!.records[0]!.data, healed: true }]);
    expect(recordsOf(after)).toEqual(['enc1:w1']);
    expect(stateOf(after)['nextInitiativeDisadvantage']).toBe(false);
    expect(stat(w, 'Slots')).toBe('2/10');
    expect(stat(after, 'Slots')).toBe('1/10');
  });

  it('two hits on one leg lose every initiative until one heals', () => {
    const w = world([pc('bram', 'Bram', {}, [injury('i1', 'leftLeg', 'Left leg injury'), injury('i2', 'leftLeg', 'Left leg injury')])]);
    expect(rules.card(w, 'bram').marks).toContain('Loses every initiative roll until a left leg injury heals (R-C6)');
    const after = run(w, { type: 'HEAL_INJURY', characterId: 'bram', recordId: 'enc1:i2' }).world;
    expect(rules.card(after, 'bram').marks).not.toContain('Loses every initiative roll until a left leg injury heals (R-C6)');
  });
});

describe('wounds (§4.6)', () => {
  it('a light wound heals in the field only with the right medicine', () => {
    const w = world([pc('bram', 'Bram', {}, [wound('w1', 'light', { type: 'burns' }), wound('w2', 'severe')])]);
    expect(refusal(w, { type: 'FIELD_TREATMENT', characterId: 'bram', recordId: 'enc1:w1', medicine: false })).toBe("Bram's light burns heals in the field only with the right medicine or herbs at hand (§4.6).");
    expect(refusal(w, { type: 'FIELD_TREATMENT', characterId: 'bram', recordId: 'enc1:w2', medicine: true })).toBe('Severe frostbite needs real medical care, not field treatment.');
    const { world: after, log } = run(w, { type: 'FIELD_TREATMENT', characterId: 'bram', recordId: 'enc1:w1', medicine: true });
    expect(log).toEqual(["Herbs and care overnight heal Bram's light burns: its slot is free."]);
    expect(recordsOf(after)).toEqual(['enc1:w2']);
  });

  it('a severe wound heals after a week of medical care on the campaign clock', () => {
    const w = world([pc('bram', 'Bram', {}, [wound('w2', 'severe')])], {}, 3);
    expect(rules.card(w, 'bram').records).toEqual([{ id: 'enc1:w2', name: 'Severe frostbite', category: 'wound', status: `severe: needs ${CARE_DAYS} days of medical care` }]);
    const begun = run(w, { type: 'BEGIN_CARE', characterId: 'bram', recordId: 'enc1:w2' });
    expect(begun.log).toEqual(["Bram's severe frostbite goes into medical care on day 3: after 7 days of care it heals, on day 10."]);
    expect(rules.card(begun.world, 'bram').records[0]!.status).toBe('in care since day 3 — heals on day 10');
    expect(refusal(begun.world, { type: 'BEGIN_CARE', characterId: 'bram', recordId: 'enc1:w2' })).toBe("Bram's severe frostbite has been in medical care since day 3: it heals on day 10.");

    const three = rules.daysPassed!(begun.world, 3)!;
    expect(three.log).toEqual(["Bram's severe frostbite: 3 of 7 days of medical care, 4 to go."]);
    expect(three.change.records).toBeUndefined();
    const day6 = { ...foldChange(begun.world, three.change), day: 6 };
    expect(rules.card(day6, 'bram').records[0]!.status).toBe('in care since day 3 — heals on day 10');

    const four = rules.daysPassed!(day6, 4)!;
    expect(four.log).toEqual(["Bram's severe frostbite heals after a week of medical care: its slot is free (in care since day 3)."]);
    expect(four.change.records).toEqual([{ id: 'enc1:w2', data: w.characters[0]!.records[0]!.data, healed: true }]);
    const healed = foldChange(day6, four.change);
    expect(recordsOf(healed)).toEqual([]);
    expect(stateOf(healed)['medicalCare']).toEqual([]);
    expect(rules.daysPassed!(healed, 1)).toBeNull();
  });

  it('stopping care loses the days counted so far', () => {
    const w = world([pc('bram', 'Bram', {}, [wound('w2', 'severe')])], {}, 3);
    expect(refusal(w, { type: 'STOP_CARE', characterId: 'bram', recordId: 'enc1:w2' })).toBe("There is no medical care running for Bram's severe frostbite.");
    const begun = run(w, { type: 'BEGIN_CARE', characterId: 'bram', recordId: 'enc1:w2' }).world;
    const later = { ...foldChange(begun, rules.daysPassed!(begun, 5)!.change), day: 8 };
    const stopped = run(later, { type: 'STOP_CARE', characterId: 'bram', recordId: 'enc1:w2' });
    expect(stopped.log).toEqual(["Medical care for Bram's severe frostbite stops after 5 of 7 days (in care since day 3); care started again begins from its first day."]);
    expect(rules.daysPassed!(stopped.world, 5)).toBeNull();
    const again = run(stopped.world, { type: 'BEGIN_CARE', characterId: 'bram', recordId: 'enc1:w2' }).world;
    expect(rules.card(again, 'bram').records[0]!.status).toBe('in care since day 8 — heals on day 15');
  });

  it('a permanent wound never heals: the attribute point can be trained back, the slot stays lost', () => {
    const w = world([pc('bram', 'Bram', { wil: 8, wilMax: 9, gearSlots: 2 }, [wound('w3', 'permanent', { type: 'nerveDamage', attribute: 'wil' })])]);
    const card = rules.card(w, 'bram');
    expect(card.marks).toEqual(expect.arrayContaining(['WIL −1 for good (permanent nerve damage); training can win it back', 'Slot lost for good (permanent nerve damage)']));
    expect(card.records).toEqual([{ id: 'enc1:w3', name: 'Permanent frostbite', category: 'wound', status: 'permanent: WIL −1, slot lost for good', permanent: true }]);
    expect(refusal(w, { type: 'BEGIN_CARE', characterId: 'bram', recordId: 'enc1:w3' })).toBe('Permanent nerve damage never heals; training can win back the attribute point.');
    expect(refusal(w, { type: 'FIELD_TREATMENT', characterId: 'bram', recordId: 'enc1:w3', medicine: true })).toBe('Permanent nerve damage never heals.');

    const trained = run(w, { type: 'TRAIN_BACK', characterId: 'bram', recordId: 'enc1:w3' });
    expect(trained.log).toEqual(["Bram trains back the WIL point lost to nerve damage (WIL 9/10); the wound's slot stays lost (3/10 slots)."]);
    expect(stateOf(trained.world)).toMatchObject({ wil: 9, wilMax: 10, gearSlots: 2 });
    expect(trained.outcome.change.records).toEqual([{ id: 'enc1:w3', data: { ...w.characters[0]!.records[0]!.data, trainedBack: true } }]);
    expect(recordsOf(trained.world)).toEqual(['enc1:w3']);
    const after = rules.card(trained.world, 'bram');
    expect(after.records[0]!.status).toBe('permanent: WIL point trained back, slot lost for good');
    expect(after.slots!.filter((s) => s.kind === 'lost')).toEqual([{ label: 'Permanent nerve damage (lost for good)', kind: 'lost' }]);
    expect(refusal(trained.world, { type: 'TRAIN_BACK', characterId: 'bram', recordId: 'enc1:w3' })).toBe('Bram has already trained back the point lost to this nerve damage.');
  });

  it('a wound worsened in a later fight replaces the earlier record, which heals with it', () => {
    const old = wound('w1', 'light');
    const worse: LedgerRecord = { ...wound('w9', 'severe', { supersedes: 'w1' }), id: 'enc2:w9' };
    const w = world([pc('bram', 'Bram', {}, [old, worse])]);
    expect(rules.card(w, 'bram').records.map((r) => r.id)).toEqual(['enc2:w9']);
    expect(stat(w, 'Slots')).toBe('1/10');
    expect(refusal(w, { type: 'FIELD_TREATMENT', characterId: 'bram', recordId: 'enc1:w1', medicine: true })).toBe("Bram's light frostbite was worsened in a later fight into severe frostbite: choose that wound instead.");
    const begun = run(w, { type: 'BEGIN_CARE', characterId: 'bram', recordId: 'enc2:w9' }).world;
    const healed = rules.daysPassed!(begun, CARE_DAYS)!;
    expect(healed.change.records!.map((r) => [r.id, r.healed])).toEqual([['enc2:w9', true], ['enc1:w1', true]]);
    expect(recordsOf(foldChange(begun, healed.change))).toEqual([]);
  });
});

describe('the recovery card', () => {
  it('shows the inventory as a grid of exactly 10 slots: gear, Fatigue, Injuries, wounds, lost slots, empty', () => {
    const w = world([pc('bram', 'Bram', { hp: 3, fatigue: 2, gearSlots: 3 }, [injury('i1', 'torso', 'Torso injury'), wound('w1', 'light'), wound('w3', 'permanent', { attribute: 'str' })])]);
    const card = rules.card(w, 'bram');
    expect(card.slots!.map((s) => s.kind)).toEqual(['gear', 'gear', 'gear', 'fatigue', 'fatigue', 'injury', 'wound', 'lost', 'empty', 'empty']);
    expect(card.slots!.map((s) => s.label).slice(5, 8)).toEqual(['Torso injury', 'Light frostbite', 'Permanent frostbite (lost for good)']);
    expect(card.stats).toEqual([
      { label: 'HP', value: '3/6', tone: 'warn' }, { label: 'STR', value: '12/12', tone: 'ok' }, { label: 'DEX', value: '10/10', tone: 'ok' },
      { label: 'WIL', value: '10/10', tone: 'ok' }, { label: 'Fatigue', value: '2', tone: 'warn' }, { label: 'Slots', value: '8/10', tone: 'ok' },
      { label: 'Night\'s rest today', value: '0/1' },
    ]);
    expect(card.out).toBeNull();
  });

  it('shows every filled slot when over-burdened, with a mark saying how far over', () => {
    const full = rules.card(world([pc('bram', 'Bram', { fatigue: 4, gearSlots: 6 })]), 'bram');
    expect(full.slots).toHaveLength(10);
    expect(full.marks).toContain('Overburdened: all 10 slots full; cannot defend (§4.4 step 3)');
    const over = rules.card(world([pc('bram', 'Bram', { fatigue: 4, gearSlots: 7 }, [wound('w1', 'light')])]), 'bram');
    expect(over.slots).toHaveLength(12);
    expect(over.slots!.some((s) => s.kind === 'empty')).toBe(false);
    expect(over.stats.find((s) => s.label === 'Slots')).toEqual({ label: 'Slots', value: '12/10', tone: 'bad' });
    expect(over.marks).toContain('Overburdened: 12 slots filled of 10, 2 over; cannot defend (§4.4 step 3)');
  });

  it('R-C24: DEX 0 alone stops a PC by default, only DEX and WIL both at 0 with "both"', () => {
    const bram = pc('bram', 'Bram', { dex: 0 });
    expect(rules.card(world([bram]), 'bram').out).toBe('Cannot act: paralysed (DEX 0) until an extended rest (R-C24)');
    expect(rules.card(world([bram], { dexWilZero: 'both' }), 'bram').out).toBeNull();
    expect(rules.card(world([pc('bram', 'Bram', { dex: 0, wil: 0 })], { dexWilZero: 'both' }), 'bram').out).toBe('Cannot act: paralysed (DEX 0) and delirious (WIL 0) until an extended rest (R-C24)');
  });

  it('refuses a character who is not in the party', () => {
    expect(() => rules.card(world([pc('bram', 'Bram')]), 'nobody')).toThrow('That character is not a party member of this campaign.');
  });
});

describe('forms', () => {
  const w = world([pc('bram', 'Bram', {}, [injury('i1', 'torso', 'Torso injury'), wound('w1', 'light')])]);

  it('offers every recovery action (core/ledger/forms.test.ts checks every form against the schema)', () => {
    expect(rules.forms.map((f) => f.type)).toEqual(['CATCH_BREATH', 'NIGHT_REST', 'EXTENDED_REST', 'TREAT', 'DEATH_CLOCK', 'RECOVER', 'HEAL_INJURY', 'FIELD_TREATMENT', 'BEGIN_CARE', 'STOP_CARE', 'TRAIN_BACK']);
  });

  it('offers the three rests to the whole party, none of them with dice', () => {
    expect(rules.forms.filter((f) => f.bulk).map((f) => f.type)).toEqual(['CATCH_BREATH', 'NIGHT_REST', 'EXTENDED_REST']);
    expect(rules.rollsFor).toBeUndefined();
  });

  it('explains malformed events in GM words', () => {
    expect(refusal(w, { type: 'NIGHT_REST', characterId: 'bram' })).toBe('Say whether the place is safe (yes or no).');
    expect(refusal(w, { type: 'DEATH_CLOCK', characterId: 'bram', minutes: 90 })).toBe('The death clock holds at most 60 minutes.');
    expect(refusal(w, { type: 'FIELD_TREATMENT', characterId: 'bram', medicine: true })).toBe('Choose an Injury or wound.');
    expect(refusal(w, { type: 'CATCH_BREATH', characterId: 'bram', hp: 6 })).toContain('CATCH_BREATH');
    expect(refusal(w, { type: 'CATCH_BREATH', characterId: 'x'.repeat(65) })).toBe('A character id is at most 64 characters.');
  });
});
