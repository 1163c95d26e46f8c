// Every option changes behaviour: for each ruling Thrum declares (options.ts) and each value other than the digest's
// default, a short case played through the public API (the encounter engine, Downtime) comes out differently from
// the default's. A new option without a case here fails the walk.
import { describe, expect, it } from 'vitest';
import type { GmEvent } from '../../encounter/types.ts';
import { defaultOptions, otherValues, type OptionValues } from '../options.ts';
import { thrumOptions } from './options.ts';
import { downtime } from './recovery.ts';
import { app, attack, contestDetails, ctx, encounter, fight, rolled, seed, shownSpeed, who } from './testing.ts';

const map = (elevation: Record<string, number> = {}): GmEvent => ({ type: 'SET_MAP', map: { width: 12, height: 12, elevation, difficult: [], startingArea: [] } });
const place = (id: string, x: number, y: number): GmEvent => ({ type: 'SET_POSITION', combatantId: id, square: { x, y }, note: '' });
const refusalOf = (work: () => unknown): string | null => {
  try {
    work();
    return null;
  } catch (error) {
    return (error as Error).message;
  }
};

/** One case per option: the outcome under the given campaign options. */
const cases: Record<string, (options: OptionValues) => unknown> = {
  // R-H1: three combatants tied on 9; who the GM is asked about, and the order.
  initiativeTies: (options) => {
    const e = encounter(options);
    e.apply({ type: 'ADD_COMBATANTS', combatants: [seed('orc', 'foes', { initiativeModifier: 1 }), seed('ana', 'party', { initiativeModifier: 1 }), seed('bo', 'party', { initiativeModifier: 2 })] });
    e.apply({ type: 'START' });
    e.apply({ type: 'ROLL_INITIATIVE', combatantId: 'orc', roll: app(4, 4) });
    e.apply({ type: 'ROLL_INITIATIVE', combatantId: 'ana', roll: app(4, 4) });
    e.apply({ type: 'ROLL_INITIATIVE', combatantId: 'bo', roll: app(4, 3) });
    return { asked: e.view().prompt?.choices.map((c) => c.id) ?? null, order: ctx(e).order };
  },
  // R-H2: an NPC's Round Zero turn takes a square.
  roundZeroNpcs: (options) => {
    const e = rolled([seed('orc', 'foes'), seed('ana', 'party')], options, [map()]);
    return refusalOf(() => e.apply({ type: 'POSITION', square: { x: 7, y: 7 } })) ?? who(e, 'orc').position;
  },
  // R-H6: a Stunned combatant attacks.
  stunned: (options) => {
    const e = fight([seed('ana', 'party'), seed('orc', 'foes')], options);
    e.apply({ type: 'APPLY_STATUS', targetId: 'ana', status: 'Stunned', stacks: 1, source: '' });
    return refusalOf(() => e.apply(attack('ana', ['orc'])));
  },
  // R-H7: Incapacitated at Fatigue Tolerance 1 ends the turn; the wound check before or after the −1.
  woundCheckOrder: (options) => {
    const e = fight([seed('ana', 'party', { fatigueTolerance: 1 }), seed('bo', 'party'), seed('orc', 'foes')], options);
    e.apply({ type: 'APPLY_LOAD', targetId: 'ana', load: 'fatigue', amount: 3, source: '' });
    e.apply({ type: 'OVERRIDE', targetId: 'ana', field: 'incapacitated', value: 1, note: '' });
    e.apply({ type: 'END_TURN' });
    return who(e, 'ana').wounds;
  },
  // R-H9: a PC Incapacitated at Fatigue Tolerance 0 when combat ends.
  zeroToleranceStaysOut: (options) => {
    const e = fight([seed('ana', 'party', { fatigueTolerance: 0 }), seed('bo', 'party'), seed('orc', 'foes')], options);
    e.apply({ type: 'APPLY_LOAD', targetId: 'ana', load: 'fatigue', amount: 3, source: '' });
    e.apply({ type: 'OVERRIDE', targetId: 'ana', field: 'incapacitated', value: 1, note: '' });
    e.apply({ type: 'END_COMBAT', outcome: 'The orc yields' });
    return who(e, 'ana').incapacitated;
  },
  // R-H10: an area on a foe and an ally.
  areasHitAllies: (options) => {
    const e = fight([seed('ana', 'party'), seed('bo', 'party'), seed('orc', 'foes')], options);
    return refusalOf(() => e.apply(attack('ana', ['orc', 'bo'], { area: true })));
  },
  // R-H11: the contest after a Resilience choice — what the prompt offers, and whether a Failure pick is taken.
  boonsAndBanes: (options) => {
    const e = fight([seed('ana', 'party'), seed('orc', 'foes')], options);
    e.apply(attack('ana', ['orc']));
    e.apply({ type: 'DEFENSE_CHOICE', defence: 'resilience' });
    const offered = e.view().prompt!.choices.map((c) => c.id);
    return { offered, refused: refusalOf(() => e.apply({ type: 'DEFENSE_RESULT', outcome: 'failure' })), fatigue: who(e, 'orc').fatigueLoad };
  },
  // R-H11 contestTies: a tied contest (4 + 3 + 0 against 3 + 4 + 0).
  contestTies: (options) => {
    const e = fight([seed('ana', 'party'), seed('orc', 'foes')], options);
    e.apply(attack('ana', ['orc']));
    e.apply({ type: 'DEFENSE_CHOICE', defence: 'resilience' });
    e.apply({ type: 'DEFENSE_RESULT', attackRoll: app(4, 3), defenceRoll: app(3, 4) });
    return who(e, 'orc').fatigueLoad;
  },
  // R-H11 criticalMargin: Evasion totals 1 to 10 above the attack; which of them are Criticals (no Vulnerable).
  criticalMargin: (options) => [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((above) => {
    const e = fight([seed('ana', 'party', { highestArtModifier: 0 }), seed('orc', 'foes', { evasion: above })], options);
    e.apply(attack('ana', ['orc']));
    e.apply({ type: 'DEFENSE_CHOICE', defence: 'evasion' });
    e.apply({ type: 'DEFENSE_RESULT', attackRoll: app(3, 3), defenceRoll: app(3, 3, 1) });
    return who(e, 'orc').statuses['Vulnerable']?.stacks ?? 0;
  }),
  // R-H12: Speed with one Slowed stack.
  slowedSpeedPerStack: (options) => {
    const e = fight([seed('ana', 'party', { speed: 5 }), seed('orc', 'foes')], options);
    e.apply({ type: 'APPLY_STATUS', targetId: 'ana', status: 'Slowed', stacks: 1, source: '' });
    return shownSpeed(e.view().order[0]);
  },
  // R-H13: a character beside the target as cover, the attacker standing at elevation 0 to 4.
  characterCoverHeight: (options) => [0, 1, 2, 3, 4].map((k) => {
    const e = fight([seed('ana', 'party'), seed('orc', 'foes'), seed('gob', 'foes')], options, [map({ '1,5': k })]);
    e.apply(place('orc', 5, 5));
    e.apply(place('gob', 4, 5));
    e.apply(place('ana', 1, 5));
    e.apply(attack('ana', ['orc']));
    e.apply({ type: 'DEFENSE_CHOICE', defence: 'resilience' });
    return contestDetails(e).attackBanes.includes('cover');
  }),
  // R-H14: the attacker stands on the dividing line.
  dividingLineCover: (options) => {
    const e = fight([seed('ana', 'party'), seed('orc', 'foes')], options, [map({ '4,5': 2 })]);
    e.apply(place('orc', 5, 5));
    e.apply(place('ana', 4, 9));
    e.apply(attack('ana', ['orc']));
    e.apply({ type: 'DEFENSE_CHOICE', defence: 'resilience' });
    return contestDetails(e).attackBanes;
  },
  // R-H15: Vulnerable at the end of the bearer's turn.
  statusCountdown: (options) => {
    const e = fight([seed('ana', 'party'), seed('orc', 'foes')], options);
    e.apply({ type: 'APPLY_STATUS', targetId: 'ana', status: 'Vulnerable', stacks: 1, source: '' });
    e.apply({ type: 'END_TURN' });
    return who(e, 'ana').statuses;
  },
  // R-H16: an attack on an Incapacitated target.
  incapacitatedDefend: (options) => {
    const e = fight([seed('ana', 'party'), seed('orc', 'foes'), seed('gob', 'foes')], options);
    e.apply({ type: 'APPLY_LOAD', targetId: 'orc', load: 'fatigue', amount: 3, source: '' });
    e.apply({ type: 'OVERRIDE', targetId: 'orc', field: 'incapacitated', value: 1, note: '' });
    e.apply(attack('ana', ['orc']));
    return { prompt: e.view().prompt?.kind ?? null, fatigue: who(e, 'orc').fatigueLoad };
  },
  // R-H17: one day of Downtime for a worn PC.
  downtimeRestores: (options) => downtime('Ana', {
    fatigueTolerance: 0, stressTolerance: 3, baseFatigueTolerance: 5, baseStressTolerance: 5, wounds: 2, stillIncapacitated: true, outOfAction: false,
  }, options).condition,
};

/** Every value an option can take other than its default. */
describe('every Thrum option changes behaviour', () => {
  const defaults = defaultOptions(thrumOptions);

  it('each declared option has a case', () => {
    for (const option of thrumOptions) expect(Object.keys(cases), `${option.key} (${option.ruling}) needs a case in the walk`).toContain(option.key);
  });


  for (const option of thrumOptions) {
    for (const value of otherValues(option)) {
      it(`${option.ruling} ${option.key} = ${String(value)} plays differently from ${String(option.default)}`, () => {
        const play = cases[option.key];
        expect(play, `no case for ${option.key}`).toBeDefined();
        expect(play!({ ...defaults, [option.key]: value })).not.toEqual(play!(defaults));
      });
    }
  }
});
