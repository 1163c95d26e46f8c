// Ready an Action (RULES.md §2.3, R-T7), through the engine's public API. Source: "Ready an Action | End your turn
// declaring an action as a reaction with a trigger condition. Lasts until next turn or when triggered", and "During
// each round, characters may also take up to one reaction. Reactions can be taken on any character's turn".
import { describe, expect, it } from 'vitest';
import { attack, fight, pick, seed, who } from './testing.ts';

/** P1 and P2 against G1 (no stamina, so hits land without a defence window) and G2. */
const skirmish = () => fight([seed('p1', 'party'), seed('p2', 'party')], [seed('g1', 'gm', { stamina: 0, evasion: 1 }), seed('g2', 'gm')]);
const readied = (e: ReturnType<typeof skirmish>) => e.apply({ type: 'ACTION', kind: 'ready', trigger: 'a goblin moves', readied: 'stab it' });
const stab = (extra = {}) => attack('p1', 'g1', [3, 3], 5, { via: 'readied', proficiency: 'none', ...extra });

describe('"End your turn declaring an action as a reaction with a trigger condition"', () => {
  it('costs an action and ends the turn: the actions left are lost', () => {
    const e = skirmish();
    pick(e, 'p1');
    e.apply({ type: 'ACTION', kind: 'move' });
    const [line] = readied(e);
    expect(line!.text).toBe('P1 readies "stab it" for when a goblin moves. The turn ends.');
    expect(e.view().activeId).toBeNull();
    expect(who(e, 'p1')).toMatchObject({ acted: true, readied: { trigger: 'a goblin moves', action: 'stab it' } });
    expect(e.view().order.find((c) => c.id === 'p1')!.tags).toContain('readied: stab it (when a goblin moves)');
  });

  it('"Reactions can be taken on any character\'s turn": it fires on the enemy\'s turn, for no action and no stamina, and counts as an attack (R-T15)', () => {
    const e = skirmish();
    pick(e, 'p1');
    readied(e);
    pick(e, 'g2');
    const stamina = who(e, 'p1').stamina;
    const [line] = e.apply(stab());
    expect(line!.text).toContain('with a readied action');
    expect(who(e, 'p1')).toMatchObject({ readied: null, reactionSpent: true, reactionUsedRound: true, stamina, attacksThisRound: 1 });
    expect(e.view().activeId).toBe('g2');
  });

  it('"or when triggered": it fires once', () => {
    const e = skirmish();
    pick(e, 'p1');
    readied(e);
    e.apply({ type: 'FIRE_READIED', combatantId: 'p1', note: 'the goblin stepped in' });
    expect(() => e.apply(stab())).toThrow('P1 has no readied action.');
    expect(() => e.apply({ type: 'FIRE_READIED', combatantId: 'p1' })).toThrow('P1 has no readied action.');
  });

  it('"Lasts until next turn": unfired, it still holds in the next round before the owner\'s turn, and lapses when that turn starts', () => {
    const e = skirmish();
    pick(e, 'p2');
    e.apply({ type: 'END_TURN' });
    pick(e, 'g1');
    e.apply({ type: 'END_TURN' });
    pick(e, 'p1');
    readied(e);
    pick(e, 'g2');
    e.apply({ type: 'END_TURN' });
    expect(e.view().round).toBe(2);
    expect(who(e, 'p1').readied).not.toBeNull();
    pick(e, 'p2');
    e.apply({ type: 'END_TURN' });
    pick(e, 'g1');
    e.apply({ type: 'END_TURN' });
    pick(e, 'p1');
    expect(who(e, 'p1').readied).toBeNull();
    expect(() => e.apply(stab())).toThrow('P1 has no readied action.');
  });

  it('"characters may also take up to one reaction": a readied action cannot fire once the reaction is spent (R-T7)', () => {
    const e = skirmish();
    pick(e, 'p1');
    readied(e);
    pick(e, 'g2');
    // G2 attacks P1, who dodges: that was the reaction of the round.
    e.apply(attack('g2', 'p1', [6, 6], 5, { proficiency: 'none' }));
    e.apply({ type: 'DEFEND', defence: 'dodge', testRoll: { faces: [6, 4], source: 'app' }, luckRoll: { faces: [5], source: 'app' } });
    expect(() => e.apply(stab())).toThrow("P1's readied action cannot fire: no reaction is left (R-T7).");
    expect(() => e.apply({ type: 'FIRE_READIED', combatantId: 'p1' })).toThrow("P1's readied action cannot fire: no reaction is left (R-T7).");
  });

  it('"becomes unable to act": knocked out, the readied action is lost', () => {
    const e = skirmish();
    pick(e, 'p1');
    readied(e);
    e.apply({ type: 'OVERRIDE', targetId: 'p1', field: 'conscious', value: 0, note: 'a rock' });
    expect(who(e, 'p1').readied).toBeNull();
  });
});
