// Enigma's recovery clock (RULES.md §1.6): Breathers, Rests, Stitchers and paid healing against the day's limits.
import { describe, expect, it } from 'vitest';
import { defaultOptions } from '../options.ts';
import type { InjuryCategory } from './injuries.ts';
import { enigmaOptions } from './options.ts';
import {
  RecoveryRefusal,
  breather,
  canReceiveHealing,
  characterMaxLp,
  dayRecord,
  markCureMet,
  meetCure,
  mostDiminishedDie,
  passDays,
  payHealing,
  resetEscalation,
  rest,
  stitcherTreat,
  type PaidHealing,
  type RecoveringCharacter,
  type RecoveringInjury,
} from './recovery.ts';

const defaults = defaultOptions(enigmaOptions);
const withOptions = (chosen: Record<string, string | number | boolean>) => ({ ...defaults, ...chosen });
const allD8 = { endure: 8, navigate: 8, glean: 8, attack: 8, influence: 8, manifest: 8 };

function injury(id: string, name: string, category: InjuryCategory, restsRemaining: number, extra: Partial<RecoveringInjury> = {}): RecoveringInjury {
  return { id, name, category, baseRoll: Math.min(4, Math.max(1, restsRemaining)), multiplier: 1, restsRemaining, permanent: false, cureCondition: null, notes: '', ...extra };
}

function berrik(extra: Partial<RecoveringCharacter> = {}): RecoveringCharacter {
  const base = { ...allD8, endure: 10 };
  return {
    id: 'berrik', name: 'Berrik', base, condition: { lp: 4, dice: { ...base } }, injuries: [], healingRestriction: null, day: dayRecord(1), ...extra,
  };
}

const lotty = { id: 'lotty', name: 'Lotty', day: dayRecord(1) };
const flynn = { id: 'flynn', name: 'Flynn', day: dayRecord(1) };

/** The refusal's sentence, and proof that it was a RecoveryRefusal. */
function refusal(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(RecoveryRefusal);
    return (error as Error).message;
  }
  throw new Error('expected a refusal');
}

describe('days', () => {
  it('keeps today\'s record and starts a fresh one on a new day', () => {
    const used = { ...dayRecord(3), breathersTaken: 2, restTaken: true };
    expect(dayRecord(3, used)).toBe(used);
    expect(dayRecord(4, used)).toEqual({ day: 4, breathersTaken: 0, restTaken: false, treatedInjuryIds: [], stitchedInjuryIds: [] });
  });
});

describe('Breather', () => {
  it('gives +2 LP and raises one diminished die one step towards its base (R-E29)', () => {
    const tired = berrik({ condition: { lp: 4, dice: { ...berrik().base, glean: 4 } } });
    const result = breather(tired, 'glean', defaults);
    expect(result.character.condition).toEqual({ lp: 6, dice: { ...tired.base, glean: 6 } });
    expect(result.lpGained).toBe(2);
    expect(result.raised).toEqual({ capacity: 'glean', from: 4, to: 6 });
    expect(result.log).toBe('Berrik takes a Breather: +2 LP (4 → 6 of 10), Glean d4 → d6; Escalation back to 1.');
    expect(tired.condition.dice.glean).toBe(4); // the input is untouched
  });

  it('R-E29 option breatherDieSteps: more steps, but never above the base', () => {
    const tired = berrik({ condition: { lp: 4, dice: { ...berrik().base, attack: 4, glean: 4 } }, base: { ...berrik().base, glean: 6 } });
    expect(breather(tired, 'attack', withOptions({ breatherDieSteps: 2 })).raised).toEqual({ capacity: 'attack', from: 4, to: 8 });
    expect(breather(tired, 'glean', withOptions({ breatherDieSteps: 2 })).raised).toEqual({ capacity: 'glean', from: 4, to: 6 });
  });

  it('raises only the chosen die, and may raise none', () => {
    const tired = berrik({ condition: { lp: 4, dice: { ...berrik().base, glean: 4, attack: 6 } } });
    const none = breather(tired, null, defaults);
    expect(none.character.condition.dice).toEqual(tired.condition.dice);
    expect(none.raised).toBeNull();
    expect(breather(tired, 'attack', defaults).character.condition.dice).toEqual({ ...tired.condition.dice, attack: 8 });
  });

  it('refuses a die that is not diminished', () => {
    expect(refusal(() => breather(berrik(), 'influence', defaults))).toBe("Berrik's Influence die is not diminished (d8, its base is d8).");
  });

  it('caps LP at max LP', () => {
    expect(breather(berrik({ condition: { lp: 9, dice: berrik().base } }), null, defaults).character.condition.lp).toBe(10);
  });

  it('R-E21 max LP with the −3 reduction caps current LP: a Breather at 6 of 7 gives 7, not 8', () => {
    const feverish = berrik({ condition: { lp: 6, dice: berrik().base }, injuries: [injury('fever', 'Fever', 'maxLp', 2)] });
    expect(characterMaxLp(feverish, defaults)).toBe(7);
    const result = breather(feverish, null, defaults);
    expect(result.character.condition.lp).toBe(7);
    expect(result.log).toBe('Berrik takes a Breather: +1 LP (6 → 7 of 7); Escalation back to 1.');
  });

  it('two Breathers a day: the third is refused until the next day', () => {
    const first = breather(berrik(), null, defaults).character;
    const second = breather(first, null, defaults).character;
    expect(second.day.breathersTaken).toBe(2);
    expect(refusal(() => breather(second, null, defaults))).toBe('Berrik has already taken two Breathers today (day 1).');
    expect(() => breather({ ...second, day: dayRecord(2, second.day) }, null, defaults)).not.toThrow();
  });

  it('R-E20 a Breather resets the party Escalation to 1', () => {
    const result = breather(berrik(), null, defaults);
    expect(result.escalation).toBe(1);
    expect(result.carriedEscalation).toBeNull();
  });

  it('R-E31 Breathers do not count towards injury recovery', () => {
    const hurt = berrik({ injuries: [injury('ankle', 'Sprained Ankle', 'speed', 3)] });
    const twice = breather(breather(hurt, null, defaults).character, null, defaults).character;
    expect(twice.injuries[0]!.restsRemaining).toBe(3);
  });
});

describe('Rest', () => {
  it('half the base Endure die in LP on a diminished Endure die: base d10 → +5', () => {
    const worn = berrik({ condition: { lp: 2, dice: { ...berrik().base, endure: 6 } } });
    const result = rest(worn, defaults);
    expect(result.character.condition.lp).toBe(7);
    expect(result.lpGained).toBe(5);
  });

  it('the same +5 when max LP follows the current die (option maxLpDie current)', () => {
    const worn = berrik({ condition: { lp: 2, dice: { ...berrik().base, endure: 4 } } });
    expect(rest(worn, withOptions({ maxLpDie: 'current' })).character.condition.lp).toBe(7);
  });

  it('returns every capacity die to its base', () => {
    const worn = berrik({ condition: { lp: 2, dice: { endure: 4, navigate: 6, glean: 4, attack: 6, influence: 8, manifest: 4 } } });
    expect(rest(worn, defaults).character.condition.dice).toEqual(worn.base);
  });

  it('caps LP at max LP, injury reductions included', () => {
    expect(rest(berrik({ condition: { lp: 8, dice: berrik().base } }), defaults).character.condition.lp).toBe(10);
    const feverish = berrik({ condition: { lp: 4, dice: berrik().base }, injuries: [injury('fever', 'Fever', 'maxLp', 3)] });
    expect(rest(feverish, defaults).character.condition.lp).toBe(7);
  });

  it('an LP reduction that heals with this Rest no longer caps the LP it gives', () => {
    const feverish = berrik({ condition: { lp: 6, dice: berrik().base }, injuries: [injury('fever', 'Fever', 'maxLp', 1)] });
    expect(rest(feverish, defaults).character.condition.lp).toBe(10);
  });

  it('counts every running injury down by one and reports the healed ones', () => {
    const hurt = berrik({
      injuries: [injury('ankle', 'Sprained Ankle', 'speed', 2), injury('ribs', 'Broken Ribs', 'endure', 1), injury('old', 'Migraine', 'glean', 0)],
    });
    const result = rest(hurt, defaults);
    expect(result.character.injuries.map((i) => i.restsRemaining)).toEqual([1, 0, 0]);
    expect(result.healedInjuryIds).toEqual(['ribs']);
    expect(result.log).toBe('Berrik rests: +5 LP (4 → 9 of 10), all capacity dice back to base; Escalation back to 1; Sprained Ankle 2 → 1 rest, Broken Ribs healed.');
    expect(hurt.injuries[0]!.restsRemaining).toBe(2); // the input is untouched
  });

  it('permanent injuries never count down', () => {
    const scarred = berrik({ injuries: [injury('eye', 'Blinded in One Eye', 'glean', 2, { permanent: true })] });
    const result = rest(scarred, defaults);
    expect(result.character.injuries[0]!.restsRemaining).toBe(2);
    expect(result.healedInjuryIds).toEqual([]);
  });

  it('an injury with a cure condition waits for the cure, then counts down', () => {
    const cursed = berrik({ injuries: [injury('nerve', 'Nerve Damage', 'endure', 2, { cureCondition: 'an Exaltium graft' })] });
    expect(rest(cursed, defaults).character.injuries[0]!.restsRemaining).toBe(2);
    const cured = { ...cursed, injuries: cursed.injuries.map(markCureMet) };
    expect(rest(cured, defaults).character.injuries[0]!.restsRemaining).toBe(1);
  });

  it('one Rest a day', () => {
    const rested = rest(berrik(), defaults).character;
    expect(rested.day.restTaken).toBe(true);
    expect(refusal(() => rest(rested, defaults))).toBe('Berrik has already rested today (day 1).');
    expect(() => rest({ ...rested, day: dayRecord(2, rested.day) }, defaults)).not.toThrow();
  });

  it('R-E20 a Rest resets the party Escalation to 1', () => {
    const result = rest(berrik(), defaults);
    expect(result.escalation).toBe(1);
    expect(result.carriedEscalation).toBeNull();
    expect(resetEscalation()).toEqual({ escalation: 1, carriedEscalation: null });
  });
});

describe('Stitcher treatment (R-E30)', () => {
  const hurt = () => berrik({ injuries: [injury('ankle', 'Sprained Ankle', 'speed', 3), injury('ribs', 'Broken Ribs', 'endure', 2)] });

  it('ENIGMA-24 Stitcher then Rest, second treatment the same day refused (R-E30)', () => {
    const treated = stitcherTreat(hurt(), lotty, 'ankle', 'natural', defaults);
    expect(treated.patient.injuries[0]!.restsRemaining).toBe(2);
    expect(treated.log).toBe("Lotty treats Berrik's Sprained Ankle: 3 → 2 rests left.");
    const slept = rest(treated.patient, defaults).character;
    expect(slept.injuries[0]!.restsRemaining).toBe(1);
    expect(refusal(() => stitcherTreat(slept, flynn, 'ankle', 'natural', defaults))).toBe(
      "Berrik's Sprained Ankle has already been treated today (day 1): Stitchers take off at most one rest per injury a day (R-E30).",
    );
    expect(refusal(() => stitcherTreat(slept, { ...lotty, day: treated.stitcherDay }, 'ankle', 'natural', defaults))).toMatch(/already been treated today/);
  });

  it('the next day the same injury may be treated again', () => {
    const day1 = stitcherTreat(hurt(), lotty, 'ankle', 'natural', defaults).patient;
    const day2 = { ...day1, day: dayRecord(2, day1.day) };
    expect(stitcherTreat(day2, { ...lotty, day: dayRecord(2) }, 'ankle', 'natural', defaults).patient.injuries[0]!.restsRemaining).toBe(1);
  });

  it('R-E30 by default one Stitcher may treat several injuries in a day', () => {
    const first = stitcherTreat(hurt(), lotty, 'ankle', 'natural', defaults);
    const second = stitcherTreat(first.patient, { ...lotty, day: first.stitcherDay }, 'ribs', 'natural', defaults);
    expect(second.patient.injuries.map((i) => i.restsRemaining)).toEqual([2, 1]);
    expect(second.stitcherDay.stitchedInjuryIds).toEqual(['ankle', 'ribs']);
  });

  it('R-E30 option stitcherSeveralInjuries off: one injury a day per Stitcher, tracked by Stitcher', () => {
    const options = withOptions({ stitcherSeveralInjuries: false });
    const first = stitcherTreat(hurt(), lotty, 'ankle', 'natural', options);
    expect(refusal(() => stitcherTreat(first.patient, { ...lotty, day: first.stitcherDay }, 'ribs', 'natural', options))).toBe(
      'Lotty has already treated an injury today (day 1): one injury a day per Stitcher (R-E30).',
    );
    // Another Stitcher may still take the other injury.
    expect(stitcherTreat(first.patient, flynn, 'ribs', 'natural', options).patient.injuries[1]!.restsRemaining).toBe(1);
  });

  it('a Stitcher treating their own injury keeps one day record', () => {
    const options = withOptions({ stitcherSeveralInjuries: false });
    const self = hurt();
    const result = stitcherTreat(self, { id: self.id, name: self.name, day: self.day }, 'ankle', 'natural', options);
    expect(result.patient.day).toEqual({ ...self.day, treatedInjuryIds: ['ankle'], stitchedInjuryIds: ['ankle'] });
    expect(result.stitcherDay).toEqual(result.patient.day);
    expect(result.log).toBe('Berrik treats their own Sprained Ankle: 3 → 2 rests left.');
    expect(refusal(() => stitcherTreat(result.patient, { id: self.id, name: self.name, day: result.stitcherDay }, 'ribs', 'natural', options))).toBe(
      'Berrik has already treated an injury today (day 1): one injury a day per Stitcher (R-E30).',
    );
  });

  it('heals an injury at its last rest', () => {
    const nearly = berrik({ injuries: [injury('ankle', 'Sprained Ankle', 'speed', 1)] });
    const result = stitcherTreat(nearly, lotty, 'ankle', 'natural', defaults);
    expect(result.healed).toBe(true);
    expect(result.log).toBe("Lotty treats Berrik's Sprained Ankle: healed.");
  });

  it('refuses healed, permanent, uncured and unknown injuries', () => {
    const patient = berrik({
      injuries: [
        injury('old', 'Migraine', 'glean', 0),
        injury('eye', 'Blinded in One Eye', 'glean', 3, { permanent: true }),
        injury('nerve', 'Nerve Damage', 'endure', 3, { cureCondition: 'an Exaltium graft' }),
      ],
    });
    expect(refusal(() => stitcherTreat(patient, lotty, 'old', 'natural', defaults))).toBe("Berrik's Migraine has already healed.");
    expect(refusal(() => stitcherTreat(patient, lotty, 'eye', 'natural', defaults))).toBe("Berrik's Blinded in One Eye is permanent: no treatment shortens it.");
    expect(refusal(() => stitcherTreat(patient, lotty, 'nerve', 'natural', defaults))).toBe(
      "Berrik's Nerve Damage heals only after its cure (an Exaltium graft); mark the cure as met first.",
    );
    expect(refusal(() => stitcherTreat(patient, lotty, 'nope', 'natural', defaults))).toBe('Berrik has no such injury.');
  });

  it('ENIGMA-18 a Fixes-only character refuses a Stitcher\'s healing magic but not a Fix', () => {
    const cursed = berrik({ healingRestriction: 'fixesOnly', injuries: [injury('ankle', 'Sprained Ankle', 'speed', 3)] });
    expect(refusal(() => stitcherTreat(cursed, lotty, 'ankle', 'magic', defaults))).toBe('Berrik can receive no healing magic except Fixes.');
    expect(stitcherTreat(cursed, lotty, 'ankle', 'fix', defaults).patient.injuries[0]!.restsRemaining).toBe(2);
  });
});

describe('paid healing', () => {
  const nexus = { name: 'Nexus City', major: true };
  const hurt = () => berrik({ injuries: [injury('ankle', 'Sprained Ankle', 'speed', 6, { baseRoll: 3, multiplier: 2 })] });
  const buy = (extra: Partial<PaidHealing>): PaidHealing => ({ injuryId: 'ankle', rests: 2, wealthAvailable: 5, settlement: nexus, healingKind: 'natural', ...extra });

  it('takes off one rest per Wealth Point in a major settlement', () => {
    const result = payHealing(hurt(), buy({}));
    expect(result.character.injuries[0]!.restsRemaining).toBe(4);
    expect(result).toMatchObject({ wealthSpent: 2, wealthLeft: 3, complication: null, healed: false });
    expect(result.log).toBe('Berrik pays 2 Wealth Points in Nexus City: Sprained Ankle 6 → 4 rests left.');
  });

  it('refuses outside a major settlement', () => {
    expect(refusal(() => payHealing(hurt(), buy({ settlement: { name: 'Dust Hollow', major: false } })))).toBe(
      'Paid healing needs a major settlement such as Nexus City.',
    );
  });

  it('an illegal clinic charges the GM\'s multiplier, rounded up, and brings a complication', () => {
    const result = payHealing(hurt(), buy({ rests: 3, wealthAvailable: 9, illegalClinic: { priceMultiplier: 1.5, complication: 'The surgeon owes the Vipers.' } }));
    expect(result.wealthSpent).toBe(5); // 3 × 1.5 = 4.5 → 5
    expect(result.wealthLeft).toBe(4);
    expect(result.complication).toBe('The surgeon owes the Vipers.');
    expect(result.character.injuries[0]!.restsRemaining).toBe(3);
    expect(result.log).toBe('Berrik pays 5 Wealth Points at an illegal clinic in Nexus City (price ×1.5): Sprained Ankle 6 → 3 rests left. Complication: The surgeon owes the Vipers.');
  });

  it('can pay off the whole injury but not more than it needs', () => {
    expect(payHealing(hurt(), buy({ rests: 6, wealthAvailable: 6 }))).toMatchObject({ healed: true, wealthLeft: 0 });
    expect(refusal(() => payHealing(hurt(), buy({ rests: 7, wealthAvailable: 9 })))).toBe(
      "Berrik's Sprained Ankle needs only 6 rests more; spend at most 6 Wealth Points.",
    );
  });

  it('refuses spending more than the Wealth available', () => {
    expect(refusal(() => payHealing(hurt(), buy({ rests: 3, wealthAvailable: 2 })))).toBe('Berrik has 2 Wealth Points; this healing costs 3.');
    expect(refusal(() => payHealing(hurt(), buy({ rests: 2, wealthAvailable: 2, illegalClinic: { priceMultiplier: 2, complication: '' } })))).toBe(
      'Berrik has 2 Wealth Points; this healing costs 4.',
    );
  });

  it('refuses a non-whole or zero number of rests, a bad multiplier, and permanent injuries', () => {
    expect(refusal(() => payHealing(hurt(), buy({ rests: 0 })))).toBe('Pay for a whole number of rests, at least 1.');
    expect(refusal(() => payHealing(hurt(), buy({ rests: 1.5 })))).toBe('Pay for a whole number of rests, at least 1.');
    expect(refusal(() => payHealing(hurt(), buy({ illegalClinic: { priceMultiplier: 0, complication: '' } })))).toBe(
      "The clinic's price multiplier must be a positive number.",
    );
    const scarred = berrik({ injuries: [injury('eye', 'Blinded in One Eye', 'glean', 3, { permanent: true })] });
    expect(refusal(() => payHealing(scarred, buy({ injuryId: 'eye' })))).toBe("Berrik's Blinded in One Eye is permanent: no treatment shortens it.");
  });

  it('ENIGMA-18 paid healing magic is refused to a Fixes-only character', () => {
    const cursed = { ...hurt(), healingRestriction: 'fixesOnly' as const };
    expect(refusal(() => payHealing(cursed, buy({ healingKind: 'magic' })))).toBe('Berrik can receive no healing magic except Fixes.');
  });
});

describe('healing restrictions (ENIGMA-18)', () => {
  it('Fixes-only refuses healing magic, allows Fixes and natural recovery', () => {
    expect(canReceiveHealing('fixesOnly', 'magic')).toBe('This character can receive no healing magic except Fixes.');
    expect(canReceiveHealing('fixesOnly', 'magic', 'Null')).toBe('Null can receive no healing magic except Fixes.');
    expect(canReceiveHealing('fixesOnly', 'fix')).toBeNull();
    expect(canReceiveHealing('fixesOnly', 'natural')).toBeNull();
    expect(canReceiveHealing(null, 'magic')).toBeNull();
  });

  it('Breathers and Rests still heal a Fixes-only character', () => {
    const cursed = berrik({ healingRestriction: 'fixesOnly' });
    expect(breather(cursed, null, defaults).character.condition.lp).toBe(6);
    expect(rest(cursed, defaults).character.condition.lp).toBe(9);
  });
});

describe('the party Escalation in the log (R-E20)', () => {
  it('names the value it resets when the party gives it', () => {
    expect(breather(berrik(), null, defaults, 4).log).toBe('Berrik takes a Breather: +2 LP (4 → 6 of 10); Escalation 4 → 1 (R-E20).');
    expect(rest(berrik(), defaults, null).log).toBe('Berrik rests: +5 LP (4 → 9 of 10), all capacity dice back to base; Escalation stays at 1.');
    expect(rest(berrik(), defaults, 1).log).toMatch(/Escalation stays at 1\.$/);
  });
});

describe('the most diminished die', () => {
  it('picks the die furthest below its base, the first in sheet order on a tie, or none', () => {
    const base = { ...allD8, endure: 10 };
    expect(mostDiminishedDie(base, { ...base, glean: 6, attack: 4 })).toBe('attack');
    expect(mostDiminishedDie(base, { ...base, endure: 8, manifest: 6 })).toBe('endure');
    expect(mostDiminishedDie(base, base)).toBeNull();
  });
});

describe('a cure met', () => {
  const cursed = () => berrik({ injuries: [injury('nerve', 'Nerve Damage', 'endure', 2, { cureCondition: 'an Exaltium graft' })] });

  it('marks the cure and says how long the injury has left', () => {
    const result = meetCure(cursed(), 'nerve', ' grafted ');
    expect(result.character.injuries[0]!.cureMet).toBe(true);
    expect(result.log).toBe("Berrik's Nerve Damage: its cure (an Exaltium graft) is met: grafted; it now heals in 2 rests.");
    expect(cursed().injuries[0]!.cureMet).toBeUndefined();
  });

  it('refuses injuries without a cure, already cured, permanent or healed', () => {
    expect(refusal(() => meetCure(meetCure(cursed(), 'nerve').character, 'nerve'))).toBe("Berrik's Nerve Damage's cure (an Exaltium graft) is already marked as met.");
    expect(refusal(() => meetCure(berrik({ injuries: [injury('ankle', 'Sprained Ankle', 'speed', 2)] }), 'ankle'))).toBe("Berrik's Sprained Ankle needs no special cure: it heals with rests.");
    expect(refusal(() => meetCure(berrik({ injuries: [injury('eye', 'Blind Eye', 'glean', 2, { permanent: true, cureCondition: 'a miracle' })] }), 'eye'))).toBe("Berrik's Blind Eye is permanent: no cure heals it.");
    expect(refusal(() => meetCure(berrik({ injuries: [injury('old', 'Migraine', 'glean', 0, { cureCondition: 'rest' })] }), 'old'))).toBe("Berrik's Migraine has already healed.");
  });
});

describe('R-E31 option restsAreDays', () => {
  const hurt = () => berrik({ injuries: [injury('ankle', 'Sprained Ankle', 'speed', 3), injury('eye', 'Blind Eye', 'glean', 2, { permanent: true })] });
  const off = withOptions({ restsAreDays: false });

  it('on (the default): a Rest counts injuries down and days passing change nothing', () => {
    expect(rest(hurt(), defaults).character.injuries[0]!.restsRemaining).toBe(2);
    expect(passDays(hurt(), 2, defaults)).toBeNull();
  });

  it('off: a Rest leaves injuries alone and each day passing takes one off, never below 0', () => {
    const rested = rest(hurt(), off);
    expect(rested.character.injuries[0]!.restsRemaining).toBe(3);
    expect(rested.log).toBe('Berrik rests: +5 LP (4 → 9 of 10), all capacity dice back to base; Escalation back to 1; injuries count days, not Rests (R-E31).');
    const oneDay = passDays(hurt(), 1, off)!;
    expect(oneDay.character.injuries.map((i) => i.restsRemaining)).toEqual([2, 2]);
    expect(oneDay.log).toBe('1 day passes for Berrik (R-E31: injuries count days): Sprained Ankle 3 → 2 days.');
    const week = passDays(hurt(), 7, off)!;
    expect(week.character.injuries[0]!.restsRemaining).toBe(0);
    expect(week.healedInjuryIds).toEqual(['ankle']);
    expect(passDays(week.character, 1, off)).toBeNull();
    expect(passDays(hurt(), 0, off)).toBeNull();
  });
});

describe('paid healing without a Wealth check', () => {
  it('spends what the GM says when the Wealth available is not given', () => {
    const hurt = berrik({ injuries: [injury('ankle', 'Sprained Ankle', 'speed', 4)] });
    const result = payHealing(hurt, { injuryId: 'ankle', rests: 4, wealthAvailable: null, settlement: { name: 'Nexus City', major: true }, healingKind: 'natural' });
    expect(result).toMatchObject({ wealthSpent: 4, wealthLeft: null, healed: true });
  });
});
