// The contested roll (§5.4 steps 4–6): the attack roll against the defence roll, rolled by the app or typed from
// physical dice, and the engine decides the defender's outcome from the totals. R-H11 (how boons and banes are
// rolled, or the tier handed back by the GM; ties, `contestTies`; the size of a Critical, `criticalMargin`) fills what the source
// leaves to other chapters.
import { describe, expect, it } from 'vitest';
import { EncounterEngine } from '../../encounter/kernel.ts';
import type { GmEvent } from '../../encounter/types.ts';
import { defaultOptions } from '../options.ts';
import { thrumEncounter } from './encounter.ts';
import { thrumOptions } from './options.ts';
import { app, attack, contestDetails, ctx, fight, seed, who } from './testing.ts';

const duel = (options = {}) =>
  fight([seed('ana', 'party', { highestArtModifier: 3 }), seed('orc', 'foes', { evasion: 2, resilience: 1, resolve: 1 })], options);
const typed = (...faces: number[]) => ({ faces, source: 'manual' as const });
const result = (attackRoll: number[], defenceRoll: number[]): GmEvent => ({ type: 'DEFENSE_RESULT', attackRoll: typed(...attackRoll), defenceRoll: typed(...defenceRoll) });

describe('the contested attack and defence are rolled or typed (R-H11)', () => {
  it('"the character making an attack rolls using their modifier for the Art": the totals decide; the app rolls when no faces are given', () => {
    const e = duel();
    e.apply(attack('ana', ['orc']));
    e.apply({ type: 'DEFENSE_CHOICE', defence: 'resilience' });
    const prompt = e.view().prompt!;
    expect(prompt.choices).toEqual([{ id: 'roll', answer: { outcome: 'roll' }, label: 'Roll 2d6 + 3 against 2d6 + 1' }]);
    expect(thrumEncounter.rollsFor!(e.snapshot, { type: 'DEFENSE_RESULT', outcome: 'roll' })).toEqual([
      { path: ['attackRoll'], label: 'Ana: Strike attack roll, 2d6 + 3', notation: '2d6', count: 2, sides: 6 },
      { path: ['defenceRoll'], label: 'Orc: Resilience roll, 2d6 + 1', notation: '2d6', count: 2, sides: 6 },
    ]);
    // 2 + 3 = 5 against 6 + 1 = 7: the defence holds.
    e.apply(result([1, 1], [3, 3]));
    expect(who(e, 'orc').fatigueLoad).toBe(0);
    // The prompt's button: the app rolls both sides into the stored event.
    const f = duel();
    f.apply(attack('ana', ['orc']));
    f.apply({ type: 'DEFENSE_CHOICE', defence: 'resilience' });
    const filled = f.withRolls({ type: 'DEFENSE_RESULT', outcome: 'roll' }) as unknown as { attackRoll: { faces: number[]; source: string }; defenceRoll: { faces: number[] } };
    expect([filled.attackRoll.faces.length, filled.defenceRoll.faces.length, filled.attackRoll.source]).toEqual([2, 2, 'app']);
    f.apply(filled);
    expect(ctx(f).stack).toEqual([]);
  });

  it('"They gain an automatic +1 Boon on the roll if they are not Vulnerable": Evasion rolls 3d6 and keeps the highest two', () => {
    const e = duel();
    e.apply(attack('ana', ['orc']));
    e.apply({ type: 'DEFENSE_CHOICE', defence: 'evasion' });
    expect(() => e.apply(result([4, 4], [6, 6]))).toThrow("Orc's Evasion roll is 3d6 (one d6 per net Boon): 2 dice given.");
    expect(() => e.apply(result([4, 4], [6, 6, 7]))).toThrow('7 is not a face of a d6.');
    // 8 + 3 = 11 against the highest two of [1, 5, 4] + 2 = 11: a tie, the defence's (R-H11 contestTies), +1 Vulnerable.
    const lines = e.apply(result([4, 4], [1, 5, 4]));
    expect(lines[0]!.text).toBe("Ana's Strike [4, 4] (typed in) + 3 = 11 against Orc's Evasion [1, 5, 4] (typed in) keeps the highest 4, 5 + 2 = 11: a tie, and the attack must exceed the defence — success: avoids the effect, +1 Vulnerable.");
    expect(lines[0]!.rulings).toEqual(['R-H11']);
    expect([who(e, 'orc').fatigueLoad, who(e, 'orc').statuses['Vulnerable']?.stacks]).toEqual([0, 1]);
  });

  it('"An attacker targeting a character with Cover rolls their attack at +1 Bane" and "Frayed characters have +1 Bane on all defensive rolls": the lowest two count', () => {
    const e = fight([seed('ana', 'party', { highestArtModifier: 3 }), seed('orc', 'foes', { resilience: 1, stressTolerance: 0 })]);
    e.apply({ type: 'APPLY_LOAD', targetId: 'orc', load: 'stress', amount: 1, source: 'dread' });
    e.apply(attack('ana', ['orc'], { covered: ['orc'] }));
    e.apply({ type: 'DEFENSE_CHOICE', defence: 'resilience' });
    expect(e.view().prompt!.choices[0]!.label).toBe('Roll 3d6 keep the lowest 2 + 3 against 3d6 keep the lowest 2 + 1');
    // The lowest two of [6, 6, 1] + 3 = 10 against the lowest two of [6, 2, 6] + 1 = 9: the attack exceeds.
    e.apply(result([6, 6, 1], [6, 2, 6]));
    expect(who(e, 'orc').fatigueLoad).toBe(1);
  });

  it('"each Bane cancels one Boon and vice versa": an ability\'s Boon against cover\'s Bane leaves a plain 2d6', () => {
    const e = duel();
    e.apply(attack('ana', ['orc'], { covered: ['orc'], extraBoons: 1 }));
    e.apply({ type: 'DEFENSE_CHOICE', defence: 'resilience' });
    expect(contestDetails(e)).toMatchObject({ attackDice: 2, defenceDice: 2 });
  });

  it('Evasion "Critical: Avoid the effect": a defence 5 or more above the attack (R-H11 criticalMargin); 4 above is a success with +1 Vulnerable', () => {
    const e = duel();
    e.apply(attack('ana', ['orc']));
    e.apply({ type: 'DEFENSE_CHOICE', defence: 'evasion' });
    // 2 + 3 = 5 against the highest two of [4, 4, 1] + 2 = 10: 5 above.
    const lines = e.apply(result([1, 1], [4, 4, 1]));
    expect(lines[0]!.text).toContain('the defence is 5 higher — critical: avoids the effect.');
    expect(lines[0]!.rulings).toEqual(['R-H11']);
    expect(who(e, 'orc').statuses).toEqual({});
    const f = duel();
    f.apply(attack('ana', ['orc']));
    f.apply({ type: 'DEFENSE_CHOICE', defence: 'evasion' });
    f.apply(result([1, 1], [4, 3, 1]));
    expect(who(f, 'orc').statuses['Vulnerable']?.stacks).toBe(1);
  });

  it('Resilience and Resolve have no Critical: "Success: Avoid the effect. Failure: Take the effect."', () => {
    const e = duel();
    e.apply(attack('ana', ['orc'], { attackType: 'mental', fatigue: 0, stress: 2 }));
    e.apply({ type: 'DEFENSE_CHOICE', defence: 'resolve' });
    e.apply(result([1, 1], [6, 6]));
    expect(ctx(e).stack).toEqual([]);
    expect(who(e, 'orc').stressLoad).toBe(0);
    const f = duel();
    f.apply(attack('ana', ['orc'], { attackType: 'mental', fatigue: 0, stress: 2 }));
    f.apply({ type: 'DEFENSE_CHOICE', defence: 'resolve' });
    const lines = f.apply(result([6, 6], [1, 1]));
    expect(lines[0]!.text).toContain('the attack is 12 higher; an attack Critical (5 or more above the defence) for an ability with a Critical effect — failure');
    expect(who(f, 'orc').stressLoad).toBe(2);
  });

  it('the dice decide: an outcome tier is refused unless the campaign hands the contest to the GM', () => {
    const e = duel();
    e.apply(attack('ana', ['orc']));
    e.apply({ type: 'DEFENSE_CHOICE', defence: 'resilience' });
    expect(() => e.apply({ type: 'DEFENSE_RESULT', outcome: 'failure' })).toThrow('The dice decide this contest (R-H11)');
    const g = duel({ boonsAndBanes: 'countsToCoreRules' });
    g.apply(attack('ana', ['orc']));
    g.apply({ type: 'DEFENSE_CHOICE', defence: 'resilience' });
    expect(() => g.apply({ type: 'DEFENSE_RESULT', outcome: 'roll' })).toThrow('This campaign hands the contest to the core rules (R-H11): give the outcome tier.');
    g.apply({ type: 'DEFENSE_RESULT', outcome: 'failure' });
    expect(who(g, 'orc').fatigueLoad).toBe(1);
  });

  it('"an ability that provides an alternative defensive option" resolves as the ability says: the GM gives its tier', () => {
    const e = duel();
    e.apply(attack('ana', ['orc']));
    e.apply({ type: 'DEFENSE_CHOICE', defence: 'alternative' });
    expect(e.view().prompt!.choices.map((c) => c.id)).toEqual(['success', 'failure']);
    expect(thrumEncounter.rollsFor!(e.snapshot, { type: 'DEFENSE_RESULT' })).toEqual([]);
    expect(() => e.apply({ type: 'DEFENSE_RESULT' })).toThrow("Orc's defence comes from an ability: give the outcome it gives (critical, success or failure).");
    e.apply({ type: 'DEFENSE_RESULT', outcome: 'success' });
    expect(who(e, 'orc').fatigueLoad).toBe(0);
  });

  it('an encounter stored before the contest was rolled (its rulings say the GM gives the tier) replays its Success/Failure picks', () => {
    const stored = { ...defaultOptions(thrumOptions), boonsAndBanes: 'countsToCoreRules' };
    const events: GmEvent[] = [
      { type: 'ADD_COMBATANTS', combatants: [seed('ana', 'party'), seed('orc', 'foes')] },
      { type: 'START' },
      { type: 'ROLL_INITIATIVE', combatantId: 'ana', roll: app(6, 6) },
      { type: 'ROLL_INITIATIVE', combatantId: 'orc', roll: app(1, 1) },
      { type: 'END_TURN' },
      { type: 'END_TURN' },
      { type: 'ATTACK', attackerId: 'ana', ability: 'Strike', attackType: 'physical', targets: [{ targetId: 'orc' }], fatigue: 2, stress: 0 },
      { type: 'DEFENSE_CHOICE', defence: 'evasion' },
      { type: 'DEFENSE_RESULT', outcome: 'failure' },
    ];
    const e = EncounterEngine.resume(thrumEncounter, { options: stored, carried: {} }, undefined, JSON.parse(JSON.stringify(events)));
    expect([who(e, 'orc').fatigueLoad, who(e, 'orc').statuses['Vulnerable']?.stacks]).toEqual([2, 1]);
  });
});
