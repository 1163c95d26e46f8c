// Issue 27: the rules review's deviations, each held to the source line it quotes
// (sources/cairn-errant-bdp-combat.txt), through the event-sourced kernel.
import { describe, expect, it } from 'vitest';
import { app, ctx, fight, intend, lock, seed, who } from './testing.ts';

describe('"All improvised weapons break after 1 attack."', () => {
  const brawl = () => {
    const e = fight([seed('bram', 'party', { hpMax: 10, hp: 10, dex: 12 }), seed('orc', 'enemies', { weaponDie: 6, hpMax: 10, hp: 10 })]);
    intend(e, 'bram', 'melee', 'orc', { weapon: 'improvised', improvisedSize: 8 });
    intend(e, 'orc', 'melee', 'bram');
    lock(e);
    return e;
  };

  it('own attack first: the chair breaks, so the same round\'s fight-back is unarmed (d4)', () => {
    const e = brawl();
    e.apply({ type: 'DEX_SAVE', id: 'bram', roll: app(3) }); // passes: Bram strikes before the orc
    const hit = e.apply({ type: 'STRIKE', id: 'orc', roll: app(5) });
    expect(hit[0]!.text).toContain('Bram d8 [5] → 5, the improvised weapon breaks.');
    e.apply({ type: 'DEFENSE', id: 'fightBack:orc' });
    e.apply({ type: 'STRIKE', id: 'bram', roll: app(2) });
    expect(() => e.apply({ type: 'FIGHT_BACK', id: 'bram', roll: app(7) })).toThrow('7 is not a face of the d4');
    const back = e.apply({ type: 'FIGHT_BACK', id: 'bram', roll: app(3) });
    expect(back[0]!.text).toContain('Bram fights back: d4 [3] → 3');
  });

  it('fight-back first: the chair breaks on the fight-back, so the own attack after it is unarmed (d4)', () => {
    const e = brawl();
    e.apply({ type: 'DEX_SAVE', id: 'bram', roll: app(15) }); // fails: the orc strikes first
    e.apply({ type: 'DEFENSE', id: 'fightBack:orc' });
    e.apply({ type: 'STRIKE', id: 'bram', roll: app(2) });
    const back = e.apply({ type: 'FIGHT_BACK', id: 'bram', roll: app(7) });
    expect(back[0]!.text).toContain("Bram fights back: d8 [7] → 7 − Orc's Armor 0 = 7, the improvised weapon breaks;");
    expect(() => e.apply({ type: 'STRIKE', id: 'orc', roll: app(7) })).toThrow('7 is not a face of the d4');
    const hit = e.apply({ type: 'STRIKE', id: 'orc', roll: app(4) });
    expect(hit[0]!.text).toContain('Bram d4 [4] → 4 (the improvised weapon is already broken: unarmed d4)');
  });

  it('a new round brings a new improvised weapon', () => {
    const e = brawl();
    e.apply({ type: 'DEX_SAVE', id: 'bram', roll: app(3) });
    e.apply({ type: 'STRIKE', id: 'orc', roll: app(5) });
    expect(ctx(e).brokenImprovised).toEqual(['bram']);
    e.apply({ type: 'DEFENSE', id: 'none' });
    e.apply({ type: 'STRIKE', id: 'bram', roll: app(2) });
    expect(ctx(e).round).toBe(2);
    expect(ctx(e).brokenImprovised).toEqual([]);
    expect(who(e, 'bram').hp).toBe(8);
  });
});
