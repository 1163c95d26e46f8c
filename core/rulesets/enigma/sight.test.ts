// Line of sight and cover for powers and capacity checks (RULES.md §1.4), as for attacks. Source: "If you cannot see
// an enemy but know their location ... you can still target them with attacks or powers. However, your capacity check
// will be at a disadvantage unless a power explicitly states that it does not require a line of sight. If an enemy is
// completely obscured by cover, such as being behind a solid wall, you cannot target them with attacks or powers
// unless a specific power allows for targeting through obstacles or cover."
import { describe, expect, it } from 'vitest';
import type { GmEvent } from '../../encounter/types.ts';
import { app, fight, seed } from './testing.ts';

const duel = () => fight([seed('hero', 'party'), seed('goblin', 'gm')]);
const check = (extra: Partial<GmEvent> = {}, faces = [6]): GmEvent => ({
  type: 'CHECK', actorId: 'hero', capacity: 'manifest', difficulty: 6, cost: 1, description: 'Mind Spike', targetId: 'goblin', roll: app(...faces), ...extra,
});

describe('"your capacity check will be at a disadvantage": a check on a target not seen', () => {
  it('rolls one disadvantage: two dice, the lower kept', () => {
    const e = duel();
    expect(() => e.apply(check({ sight: 'unseen' }))).toThrow("Hero's Manifest roll needs 2 d8 (1 disadvantage): 1 given.");
    const [line] = e.apply(check({ sight: 'unseen' }, [7, 5]));
    expect(line!.text).toBe('Hero: Mind Spike on Goblin (not seen) — Manifest d8 with 1 disadvantage [7, 5] → 5 against difficulty 6: failure (1 action).');
  });

  it('"unless a power explicitly states that it does not require a line of sight": no disadvantage', () => {
    const [line] = duel().apply(check({ sight: 'unseen', needsNoSight: true }, [6]));
    expect(line!.text).toBe('Hero: Mind Spike on Goblin (not seen; the power needs no line of sight) — Manifest d8 [6] → 6 against difficulty 6: success (1 action).');
  });

  it('sight only matters for a check aimed at someone', () => {
    expect(() => duel().apply(check({ targetId: null, sight: 'unseen' }))).toThrow('Line of sight matters for a check aimed at someone: choose whom it is against.');
  });
});

describe('"you cannot target them with attacks or powers unless a specific power allows for targeting through obstacles or cover"', () => {
  it('a check on a target behind full cover is refused, unless the power targets through cover', () => {
    expect(() => duel().apply(check({ sight: 'fullCover' }))).toThrow('Goblin is completely behind cover and cannot be targeted.');
    duel().apply(check({ sight: 'fullCover', throughCover: true }));
  });

  it('a power on a target behind full cover is refused, unless it targets through obstacles or cover', () => {
    const e = duel();
    expect(() => e.apply({ type: 'USE_POWER', power: 'Fireball', cost: 1, targetIds: ['goblin'], coveredIds: ['goblin'] }))
      .toThrow('Goblin is completely behind cover and cannot be targeted by a power that does not target through obstacles or cover.');
    expect(e.snapshot.context).toMatchObject({ actionsLeft: 2 });
    e.apply({ type: 'USE_POWER', power: 'Ghost Fire', cost: 1, targetIds: ['goblin'], coveredIds: ['goblin'], throughCover: true });
    e.apply({ type: 'END_TURN' });
    expect(() => e.apply({ type: 'USE_REACTION', reactorId: 'hero', power: 'Snare', targetIds: ['goblin'], coveredIds: ['goblin'] }))
      .toThrow('Goblin is completely behind cover and cannot be targeted by a power that does not target through obstacles or cover.');
  });

  it('only the power\'s targets can be listed as behind cover', () => {
    expect(() => duel().apply({ type: 'USE_POWER', power: 'Fireball', cost: 1, targetIds: [], coveredIds: ['goblin'] })).toThrow('Goblin is not a target of the power.');
  });
});
