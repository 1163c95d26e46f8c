// Cairn-Errant's recovery rules (RULES.md §4.6, R-C25, R-C27) as pure functions.
import { describe, expect, it } from 'vitest';
import {
  RecoveryRefusal, advanceDeathClock, catchBreath, extendedRest, fieldTreatment, healInjury, medicalCare, nightRest,
  recover, recoveringCharacter, slotsUsed, trainBack, treat, type RecoveringCharacter,
} from './recovery.ts';
import type { Wound } from './rules.ts';

const wound = (id: string, severity: Wound['severity'], extra: Partial<Wound> = {}): Wound => ({ id, kind: 'wound', type: 'frostbite', severity, attribute: null, source: 'winter', trainedBack: false, ...extra });

function bram(change: Partial<RecoveringCharacter> = {}): RecoveringCharacter {
  return {
    id: 'bram', name: 'Bram', hp: 1, hpMax: 6, str: 8, strMax: 12, dex: 0, dexMax: 11, wil: 7, wilMax: 9, fatigue: 3, gearSlots: 4,
    incapacitated: false, deathClockMinutes: 0, treated: false, unconscious: false, failedCriticalSave: false, dead: false,
    injuries: [], wounds: [], ...change,
  };
}

describe('rests', () => {
  it('a breather restores HP (base Cairn), not while dying', () => {
    expect(catchBreath(bram()).character.hp).toBe(6);
    expect(() => catchBreath(bram({ incapacitated: true, deathClockMinutes: 40 }))).toThrow('Bram is dying: treat the wounds first.');
    expect(() => catchBreath(bram({ hp: 6 }))).toThrow(RecoveryRefusal);
  });

  it('R-C25 Fatigue clears only after a full night\'s rest in a safe place', () => {
    expect(() => nightRest(bram(), { safe: false })).toThrow("Fatigue clears only after a full night's rest in a safe place (R-C25): Bram cannot rest here.");
    const rested = nightRest(bram({ unconscious: true }), { safe: true });
    expect([rested.character.fatigue, rested.character.hp, rested.character.unconscious]).toEqual([0, 6, false]);
    expect(rested.rulings).toEqual(['R-C25']);
  });

  it('an extended rest restores DEX and WIL (R-C24) and does what a safe night does; STR only with a healer', () => {
    const rested = extendedRest(bram());
    expect([rested.character.dex, rested.character.wil, rested.character.str, rested.character.hp, rested.character.fatigue]).toEqual([11, 9, 8, 6, 0]);
    expect(rested.text).toBe('Bram takes an extended rest: DEX 0 → 11, WIL 7 → 9, HP 1 → 6, Fatigue 3 → 0.');
    expect(rested.rulings).toEqual(['R-C24', 'R-C25']);
    expect(extendedRest(bram(), { healer: true }).character.str).toBe(12);
    expect(() => extendedRest(bram({ dex: 11, wil: 9, hp: 6, fatigue: 0 }))).toThrow("Bram's DEX and WIL are already at their maximum; only a healer's care restores STR 8/12.");
    expect(() => extendedRest(bram({ dex: 11, wil: 9, hp: 6, fatigue: 0, str: 12 }))).toThrow("Bram's DEX and WIL are already at their maximum, and an extended rest has nothing else to restore.");
    expect(() => extendedRest(bram({ incapacitated: true, deathClockMinutes: 20 }))).toThrow('Bram is dying: treat the wounds before resting.');
  });

  it('a treated but incapacitated PC gets no HP back from a breather or a night (R-C27)', () => {
    const treated = bram({ incapacitated: true, treated: true, fatigue: 0 });
    expect(() => catchBreath(treated)).toThrow('Bram is incapacitated and stays out until healed: a breather does not help until they recover (R-C27).');
    expect(() => nightRest(treated, { safe: true })).toThrow("Bram has nothing a night's rest restores: HP return only once they recover (R-C27) and no Fatigue.");
    expect(() => catchBreath(bram({ unconscious: true }))).toThrow("Bram is unconscious: a safe night's rest wakes them.");
  });
});

describe('the death clock (§4.4 step 10, R-C27)', () => {
  const dying = () => bram({ incapacitated: true, deathClockMinutes: 60 });

  it('runs down in in-game minutes and kills at the end of the hour', () => {
    const half = advanceDeathClock(dying(), 30);
    expect(half.character.deathClockMinutes).toBe(30);
    expect(advanceDeathClock(half.character, 30).character.dead).toBe(true);
    expect(() => advanceDeathClock(bram(), 5)).toThrow('Bram is not dying: no death clock runs.');
  });

  it('with R-C27 off, treatment stops the clock and the PC acts again at once', () => {
    const treated = treat(dying(), { treatedStaysOut: false });
    expect([treated.character.deathClockMinutes, treated.character.incapacitated, treated.character.treated]).toEqual([0, false, true]);
    expect(treated.text).toBe('Bram is treated: the death clock stops; Bram can act again.');
  });

  it('treatment stops the clock; the PC stays out until healed, then recovers', () => {
    const treated = treat(dying());
    expect([treated.character.deathClockMinutes, treated.character.incapacitated, treated.character.treated]).toEqual([0, true, true]);
    expect(() => advanceDeathClock(treated.character, 90)).toThrow('not dying');
    expect(() => recover(dying())).toThrow('Bram must be treated before recovering (R-C27).');
    expect(recover(treated.character).character.incapacitated).toBe(false);
  });
});

describe('Injuries and wounds (§4.6)', () => {
  it('a healed hit-location Injury frees its slot', () => {
    const c = bram({ injuries: [{ id: 'i1', kind: 'injury', location: 'rightLeg', name: 'Right leg injury' }] });
    expect(slotsUsed(c)).toBe(8);
    const healed = healInjury(c, 'i1');
    expect([slotsUsed(healed.character), healed.healed, healed.rulings]).toEqual([7, ['i1'], ['R-C6']]);
  });

  it('light wounds heal in the field, severe ones need a week of care, permanent ones never heal', () => {
    const c = bram({ wounds: [wound('light', 'light'), wound('severe', 'severe'), wound('perm', 'permanent', { attribute: 'str' })] });
    expect(fieldTreatment(c, 'light').character.wounds.map((w) => w.id)).toEqual(['severe', 'perm']);
    expect(() => fieldTreatment(c, 'severe')).toThrow('Severe frostbite needs real medical care, not field treatment.');
    expect(medicalCare(c, 'severe').healed).toEqual(['severe']);
    expect(() => medicalCare(c, 'perm')).toThrow('Permanent frostbite never heals');
  });

  it('training wins back a permanent wound\'s point, once, and the slot stays lost', () => {
    const c = bram({ wounds: [wound('perm', 'permanent', { attribute: 'str' })] });
    const trained = trainBack(c, 'perm');
    expect([trained.character.str, trained.character.strMax, slotsUsed(trained.character)]).toEqual([9, 13, 8]);
    expect(() => trainBack(trained.character, 'perm')).toThrow('Bram has already trained back the point lost to this frostbite.');
    expect(() => trainBack(bram({ wounds: [wound('l', 'light')] }), 'l')).toThrow(RecoveryRefusal);
  });

  it('builds the recovery state from the stored condition and records, a superseded wound dropped', () => {
    const c = recoveringCharacter('bram', 'Bram', { hpMax: 6, strMax: 12 }, { hp: 2, str: 7, fatigue: 1 }, [{ ...wound('old', 'light') }, { ...wound('new', 'severe'), supersedes: 'old' }]);
    expect([c.hp, c.str, c.strMax, c.fatigue, c.wounds.map((w) => w.id)]).toEqual([2, 7, 12, 1, ['new']]);
  });

  it('nothing heals the dead', () => {
    expect(() => nightRest(bram({ dead: true }), { safe: true })).toThrow('Bram is dead.');
  });
});
