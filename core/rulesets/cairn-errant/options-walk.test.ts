// Every option changes behaviour (issue 27): each Cairn-Errant option, read from the ruleset's own declarations, has a
// short case played through the kernel; every value other than the default gives an outcome that differs from the
// default's. A new option without a case turns this red; an option with a single choice chooses nothing and is refused
// too (it belongs in RETIRED_CAIRN_ERRANT_OPTIONS as a documented constant).
import { describe, expect, it } from 'vitest';
import { otherValues } from '../options.ts';
import { cairnErrantOptions } from './options.ts';
import { app, ctx, fight, intend, lock, seed, who, type Options } from './testing.ts';
import type { EncounterEngine } from '../../encounter/kernel.ts';

type Case = (options: Options) => unknown;

/** Plays `play` and returns what it returns, or the refusal sentence that stopped it. */
const outcome = (play: () => unknown): unknown => {
  try {
    return play();
  } catch (error) {
    return `refused: ${(error as Error).message}`;
  }
};
const step = (e: EncounterEngine) => e.view().prompt?.kind ?? null;

/** Bram (PC) is attacked by an orc in the enemies' moment; the callback answers the defence and the rest. */
function attacked(options: Options, bram: Record<string, string | number | boolean> = {}, orc: Record<string, string | number | boolean> = {}, orcIntent: Record<string, unknown> = {}) {
  const e = fight([seed('bram', 'party', { hpMax: 6, hp: 6, ...bram }), seed('orc', 'enemies', { weaponDie: 8, hpMax: 8, hp: 8, ...orc })], options);
  intend(e, 'bram', 'spell');
  intend(e, 'orc', 'melee', 'bram', orcIntent);
  lock(e);
  return e;
}

/** Bram's gambit on the orc (the orc's DEX save), the orc attacking back on a pass. */
function gambit(options: Options, roll: number, save: number) {
  const e = fight([seed('bram', 'party', { weaponDie: 6 }), seed('orc', 'enemies', { weaponDie: 6, dex: 10, canDefend: true })], options);
  intend(e, 'bram', 'gambit', 'orc');
  intend(e, 'orc', 'other', null, { note: 'waits' });
  lock(e);
  e.apply({ type: 'DEX_SAVE', combatantId: 'bram', roll: app(2) });
  if (step(e) === 'defence') return e; // R-C18 as an option: the target's window comes first
  e.apply({ type: 'GAMBIT', save: 'dex', roll: app(roll), saveRoll: app(save) });
  return e;
}

/** Bram loses STR to a blow and fails the STR save: the critical table waits. */
function critical(options: Options) {
  const e = fight([seed('bram', 'party', { hpMax: 4, hp: 4, str: 10 }), seed('ana', 'party'), seed('orc', 'enemies')], options);
  e.apply({ type: 'APPLY_DAMAGE', targetId: 'bram', amount: 6, source: 'a rockfall' });
  e.apply({ type: 'STR_SAVE', combatantId: 'bram', roll: app(20) });
  return e;
}

const CASES: Record<string, Case> = {
  // Errant: no enemy shares Bram's full tier, so no save; base Cairn: one DEX save at the start anyway.
  initiativeMode: (o) => outcome(() => {
    const e = fight([seed('bram', 'party'), seed('orc', 'enemies')], o);
    intend(e, 'bram', 'spell');
    intend(e, 'orc', 'melee', 'bram');
    lock(e);
    return step(e);
  }),
  // Two orcs on Bram in one bucket: one roll keeping the highest (R-C1), or one attack after the other.
  bucketIsOneMoment: (o) => outcome(() => {
    const e = fight([seed('bram', 'party', { hpMax: 10, hp: 10 }), seed('orc', 'enemies', { weaponDie: 6 }), seed('gob', 'enemies', { weaponDie: 6 })], o);
    intend(e, 'bram', 'spell');
    intend(e, 'orc', 'melee', 'bram');
    intend(e, 'gob', 'melee', 'bram');
    lock(e);
    e.apply({ type: 'DEFENSE', defence: 'none' });
    return e.refusal({ type: 'STRIKE', targetId: 'bram', roll: app(3, 4) });
  }),
  meleeClashes: (o) => outcome(() => {
    const e = fight([seed('bram', 'party', { weaponDie: 6 }), seed('orc', 'enemies', { weaponDie: 10 })], o);
    intend(e, 'bram', 'melee', 'orc');
    intend(e, 'orc', 'melee', 'bram');
    lock(e);
    return ctx(e).clashes.length;
  }),
  // Bram's gambit on the orc while the orc strikes Bram, clashes off: ranked by weapon size (always) or not at all.
  gambitOrder: (o) => outcome(() => {
    const e = fight([seed('bram', 'party', { weaponDie: 6 }), seed('orc', 'enemies', { weaponDie: 10 })], o);
    intend(e, 'bram', 'gambit', 'orc');
    intend(e, 'orc', 'melee', 'bram');
    lock(e);
    return [step(e), ctx(e).clashes.map((c) => c.first)];
  }),
  // Bram with a light d6 weapon: Block is offered as written, not under restrict; graded with a d8 negates a d6 blow.
  blockDodge: (o) => outcome(() => {
    const light = attacked(o, { weaponDie: 6 }, { weaponDie: 6 });
    const choices = light.view().prompt!.choices.map((c) => c.id);
    const geared = attacked(o, { weaponDie: 8 }, { weaponDie: 6 });
    geared.apply({ type: 'DEFENSE', defence: 'block' });
    geared.apply({ type: 'STRIKE', targetId: 'bram', roll: app(4) });
    return [choices, who(geared, 'bram').hp];
  }),
  parryFatigue: (o) => outcome(() => {
    const e = attacked(o);
    e.apply({ type: 'DEFENSE', defence: 'parry', attackerId: 'orc' });
    return who(e, 'bram').fatigue;
  }),
  enhancedMode: (o) => outcome(() => {
    const e = attacked(o, { hpMax: 20, hp: 20 }, {}, { position: 'enhanced' });
    e.apply({ type: 'DEFENSE', defence: 'none' });
    // The dice asked: d8 + d12 (kept or summed), or the d12 alone (replace).
    const bothDice = e.refusal({ type: 'STRIKE', targetId: 'bram', roll: app(3, 5) });
    e.apply({ type: 'STRIKE', targetId: 'bram', roll: app(...(o['enhancedMode'] === 'replace' ? [5] : [3, 5])) });
    return [bothDice, who(e, 'bram').hp];
  }),
  // An enhanced d8 blow that Bram blocks: cancelled to a plain d8, or impaired d4 with the d12 still rolled.
  enhancedImpairedCancel: (o) => outcome(() => {
    const e = attacked(o, {}, {}, { position: 'enhanced' });
    e.apply({ type: 'DEFENSE', defence: 'block' });
    return e.refusal({ type: 'STRIKE', targetId: 'bram', roll: app(8) });
  }),
  directStrDamageSaves: (o) => outcome(() => {
    const e = fight([seed('bram', 'party', { hpMax: 6, hp: 6 }), seed('orc', 'enemies', { weaponDie: 8 })], o);
    e.apply({ type: 'SET_AWARE', combatantId: 'bram', aware: false });
    intend(e, 'bram', 'spell');
    intend(e, 'orc', 'melee', 'bram');
    lock(e);
    e.apply({ type: 'STRIKE', targetId: 'bram', roll: app(3) });
    return step(e);
  }),
  // Bram fights back, the blow crits him and the d6 leaves him incapacitated: does the fight-back still come?
  downedCannotFightBack: (o) => outcome(() => {
    const e = attacked(o, { hpMax: 1, hp: 1 });
    e.apply({ type: 'DEFENSE', defence: 'fightBack', attackerId: 'orc' });
    e.apply({ type: 'STRIKE', targetId: 'bram', roll: app(4) });
    e.apply({ type: 'STR_SAVE', combatantId: 'bram', roll: app(20) });
    e.apply({ type: 'CRIT_D6', combatantId: 'bram', roll: app(3) });
    return step(e);
  }),
  // An archer shoots Bram (a sword) from Far: a fight-back is offered only when any attacker may be fought back.
  fightBackReach: (o) => outcome(() => {
    const e = fight([seed('bram', 'party'), seed('archer', 'enemies')], o);
    e.apply({ type: 'SET_BAND', combatantId: 'archer', band: 'far' });
    intend(e, 'bram', 'spell');
    intend(e, 'archer', 'ranged', 'bram');
    lock(e);
    return e.view().prompt!.choices.map((c) => c.id);
  }),
  // R-C29: the orc is Far from Bram; Bram's melee strike at it is a full turn, or refused until Bram closes in.
  farMelee: (o) => outcome(() => {
    const e = fight([seed('bram', 'party'), seed('orc', 'enemies')], o);
    e.apply({ type: 'SET_BAND', combatantId: 'orc', band: 'far' });
    intend(e, 'bram', 'melee', 'orc');
    return ctx(e).intents['bram']!.tier;
  }),
  parryIgnoresArmor: (o) => outcome(() => {
    const e = attacked(o, { weaponDie: 8 }, { armor: 2 });
    e.apply({ type: 'DEFENSE', defence: 'parry', attackerId: 'orc' });
    e.apply({ type: 'STRIKE', targetId: 'bram', roll: app(2, 7) });
    return who(e, 'orc').str;
  }),
  // Gambit roll 2 is Difficulty 2; the orc's save is a natural 1.
  naturalOneVsDifficulty: (o) => outcome(() => step(gambit(o, 2, 1))),
  // The orc passes and attacks back: Bram takes it, or (option off) reacts first.
  noReactionToAttackBack: (o) => outcome(() => {
    const e = gambit(o, 5, 3);
    e.apply({ type: 'ATTACK_BACK', decision: 'strike', ...(o['noReactionToAttackBack'] === false ? {} : { roll: app(4) }) });
    return [step(e), who(e, 'bram').hp];
  }),
  fightBackAgainstGambits: (o) => outcome(() => step(gambit(o, 5, 3))),
  // Gambit roll 5: literal no Difficulty, capped Difficulty 3; a save of 2 passes only without one.
  gambitDifficulty: (o) => outcome(() => step(gambit(o, 5, 2))),
  hitLocations: (o) => outcome(() => e2answer(critical(o))),
  headResult: (o) => outcome(() => {
    const e = critical({ ...o, hitLocations: true });
    e.apply({ type: 'HIT_LOCATION', combatantId: 'bram', roll: app(10) });
    return [step(e), who(e, 'bram').out?.kind ?? null];
  }),
  npcCriticalDamage: (o) => outcome(() => {
    const e = fight([seed('bram', 'party'), seed('orc', 'enemies', { hpMax: 2, hp: 2 }), seed('gob', 'enemies')], o);
    e.apply({ type: 'APPLY_DAMAGE', targetId: 'orc', amount: 5, source: 'a rockfall' });
    e.apply({ type: 'STR_SAVE', combatantId: 'orc', roll: app(20) });
    return [step(e), who(e, 'orc').failedCriticalSave];
  }),
  dexWilZero: (o) => outcome(() => {
    const e = fight([seed('bram', 'party', { dex: 0, dexMax: 10 }), seed('orc', 'enemies')], o);
    intend(e, 'bram', 'spell');
    return ctx(e).intents['bram']?.action ?? null;
  }),
  wounds: (o) => outcome(() => {
    const e = fight([seed('bram', 'party'), seed('orc', 'enemies')], o);
    e.apply({ type: 'GAIN_WOUND', combatantId: 'bram', woundType: 'burns', source: 'fire' });
    return who(e, 'bram').wounds.length;
  }),
  treatedStaysOut: (o) => outcome(() => {
    const e = critical(o);
    e.apply({ type: 'CRIT_D6', combatantId: 'bram', roll: app(3) });
    e.apply({ type: 'TREAT', combatantId: 'bram' });
    return who(e, 'bram').incapacitated;
  }),
};

function e2answer(e: EncounterEngine) {
  return e.view().prompt?.answer ?? null;
}

describe('every Cairn-Errant option changes an outcome', () => {
  it('every option has a case', () => {
    for (const option of cairnErrantOptions) expect(CASES[option.key], `${option.key} has no case in options-walk.test.ts`).toBeTypeOf('function');
    expect(Object.keys(CASES).filter((key) => !cairnErrantOptions.some((o) => o.key === key))).toEqual([]);
  });

  for (const option of cairnErrantOptions) {
    for (const value of otherValues(option)) {
      it(`${option.key} = ${String(value)} (${option.ruling}) plays differently from ${String(option.default)}`, () => {
        const play = CASES[option.key]!;
        const byDefault = play({ [option.key]: option.default });
        const changed = play({ [option.key]: value });
        expect(changed).not.toEqual(byDefault);
      });
    }
  }

});
