// R-E17 (RULES.md §1.4 step 9): "an attack or a power used on a target reveals the user to that target and to every
// observer with line of sight, unless a power says otherwise." Source on Hidden: "A Hidden combatant cannot be
// targeted by powers, attacks, or capacity checks by a combatant that does not Notice them."
import { describe, expect, it } from 'vitest';
import { app, fight, melee, seed, who } from './testing.ts';

/** Hero hides from the goblin and the orc (both roll 1 against its 8); it is Hero's turn. */
function hidden(options: Record<string, string | number | boolean> = {}) {
  const e = fight([seed('hero', 'party'), seed('goblin', 'gm'), seed('orc', 'gm')], options);
  e.apply({ type: 'HIDE', navigateRoll: app(8), observers: [{ observerId: 'goblin', gleanRoll: app(1) }, { observerId: 'orc', gleanRoll: app(1) }] });
  expect(who(e, 'hero').hiddenFrom).toEqual(['goblin', 'orc']);
  return e;
}

describe('R-E17: "an attack or a power used on a target reveals the user"', () => {
  it('a power used on a target reveals its user, and the log says so', () => {
    const e = hidden();
    const [line] = e.apply({ type: 'USE_POWER', power: 'Mind Spike', cost: 1, targetIds: ['goblin'] });
    expect(who(e, 'hero').hiddenFrom).toEqual([]);
    expect(line!.text).toBe('Hero activates Mind Spike on Goblin, 1 action. Hero is revealed (R-E17).');
    expect(line!.rulings).toContain('R-E17');
    expect(e.view().order.find((c) => c.id === 'hero')!.tags.some((t) => t.startsWith('hidden from'))).toBe(false);
  });

  it('a reaction power used on a target reveals the reactor', () => {
    const e = hidden();
    e.apply({ type: 'END_TURN' });
    const [line] = e.apply({ type: 'USE_REACTION', reactorId: 'hero', power: 'Snare', targetIds: ['goblin'] });
    expect(who(e, 'hero').hiddenFrom).toEqual([]);
    expect(line!.text).toBe('Hero reacts with Snare on Goblin: one action less next turn. Hero is revealed (R-E17).');
  });

  it('a power used on nobody reveals nothing', () => {
    const e = hidden();
    e.apply({ type: 'USE_POWER', power: 'Shadow Step', cost: 1 });
    expect(who(e, 'hero').hiddenFrom).toEqual(['goblin', 'orc']);
  });

  it('"to every observer with line of sight": an observer out of sight still does not see the user; the target always does', () => {
    const e = hidden();
    const [line] = e.apply(melee('hero', 'goblin', 8, 1, { unseenBy: ['orc'] }));
    expect(who(e, 'hero').hiddenFrom).toEqual(['orc']);
    expect(line!.text).toMatch(/ Hero is revealed to Goblin; still hidden from Orc, out of sight \(R-E17\)\.$/);
    const power = hidden();
    power.apply({ type: 'USE_POWER', power: 'Mind Spike', cost: 1, targetIds: ['goblin'], unseenBy: ['orc'] });
    expect(who(power, 'hero').hiddenFrom).toEqual(['orc']);
    expect(() => hidden().apply(melee('hero', 'goblin', 8, 1, { unseenBy: ['goblin'] })))
      .toThrow('Goblin is a target: a target always learns who used it on them (R-E17).');
  });

  it('"unless a power says otherwise": a power that keeps its user hidden; only a power can', () => {
    const e = hidden();
    const [line] = e.apply({ type: 'USE_POWER', power: 'Whisper of Doubt', cost: 1, targetIds: ['goblin'], staysHidden: true });
    expect(who(e, 'hero').hiddenFrom).toEqual(['goblin', 'orc']);
    expect(line!.text).toBe('Hero activates Whisper of Doubt on Goblin, 1 action. Hero stays hidden: the power says so (R-E17).');
    expect(() => hidden().apply(melee('hero', 'goblin', 8, 1, { staysHidden: true }))).toThrow('Only a power can keep its user hidden (R-E17): name the power.');
    const sniper = hidden();
    sniper.apply(melee('hero', 'goblin', 8, 1, { power: 'Ghost Shot', staysHidden: true }));
    expect(who(sniper, 'hero').hiddenFrom).toEqual(['goblin', 'orc']);
  });

  it('with R-E17 off nothing reveals, and the log names no reveal', () => {
    const e = hidden({ attackRevealsHidden: false });
    const [line] = e.apply({ type: 'USE_POWER', power: 'Mind Spike', cost: 1, targetIds: ['goblin'] });
    expect(who(e, 'hero').hiddenFrom).toEqual(['goblin', 'orc']);
    expect(line!.text).toBe('Hero activates Mind Spike on Goblin, 1 action.');
  });
});
