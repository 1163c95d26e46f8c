// Hide and Notice need line of sight (RULES.md §1.4 step 9). Source: "Hide: As an action you can make a Navigate check
// contested by a foe's Glean die to become hidden from that foe. ... To Hide from a creature you must break line of
// sight." / "Notice: As an action you can make a Glean check contested by a foe's Navigate die to notice a foe that is
// Hidden. To attempt to Notice a creature you must have line of sight on them."
// The app has no map: the GM says it, on the event (`sightBroken` on HIDE, `lineOfSight` on NOTICE).
import { describe, expect, it } from 'vitest';
import { EncounterEngine } from '../../encounter/kernel.ts';
import { defaultOptions } from '../options.ts';
import { enigmaEncounter } from './encounter.ts';
import { app, fight, seed, who } from './testing.ts';
import { enigmaOptions } from './options.ts';

const duel = () => fight([seed('hero', 'party'), seed('goblin', 'gm')]);
const hide = (extra: Record<string, unknown> = {}) => ({ type: 'HIDE', navigateRoll: app(8), observers: [{ observerId: 'goblin', gleanRoll: app(1) }], ...extra });
const notice = (extra: Record<string, unknown> = {}) => ({ type: 'NOTICE', targetId: 'hero', gleanRoll: app(8), navigateRoll: app(1), ...extra });

describe('"To Hide from a creature you must break line of sight"', () => {
  it('a Hide that has not broken line of sight is refused, and costs nothing', () => {
    const e = duel();
    expect(() => e.apply(hide({ sightBroken: false }))).toThrow('Hero must break line of sight to hide: list only the foes Hero is out of sight of.');
    expect(who(e, 'hero').hiddenFrom).toEqual([]);
    expect(e.snapshot.context).toMatchObject({ actionsLeft: 2 });
  });

  it('a Hide out of sight is rolled as before', () => {
    const e = duel();
    const [line] = e.apply(hide({ sightBroken: true }));
    expect(who(e, 'hero').hiddenFrom).toEqual(['goblin']);
    expect(line!.text).toBe("Hero hides: Navigate [8] against Goblin's Glean [1]. Hidden from Goblin.");
  });
});

describe('"To attempt to Notice a creature you must have line of sight on them"', () => {
  /** Hero hides from the goblin; the goblin's turn. */
  const hiddenHero = () => {
    const e = duel();
    e.apply(hide());
    e.apply({ type: 'END_TURN' });
    return e;
  };

  it('a Notice without line of sight is refused, and costs nothing', () => {
    const e = hiddenHero();
    expect(() => e.apply(notice({ lineOfSight: false }))).toThrow('Goblin has no line of sight on Hero, and must have it to try to Notice them.');
    expect(who(e, 'hero').hiddenFrom).toEqual(['goblin']);
    expect(e.snapshot.context).toMatchObject({ actionsLeft: 2 });
  });

  it('a Notice with line of sight is rolled as before', () => {
    const e = hiddenHero();
    const [line] = e.apply(notice({ lineOfSight: true }));
    expect(who(e, 'hero').hiddenFrom).toEqual([]);
    expect(line!.text).toBe('Goblin searches for Hero: Glean [8] against Navigate [1], noticed.');
  });
});

describe('events stored before the sight was asked', () => {
  it('a stored Hide and Notice without the field replay as before: sight broken, sight had', () => {
    const input = { options: defaultOptions(enigmaOptions), carried: { escalation: null } };
    // The stored shape, as JSON: no `sightBroken`, no `lineOfSight`.
    const stored: unknown[] = JSON.parse(JSON.stringify([
      { type: 'ADD_COMBATANTS', combatants: [seed('hero', 'party'), seed('goblin', 'gm')] },
      { type: 'SET_GM_ORDER', ids: ['goblin'] },
      { type: 'START' },
      hide(),
      { type: 'END_TURN' },
    ]));
    const e = EncounterEngine.resume(enigmaEncounter, input, null, stored);
    expect(who(e, 'hero').hiddenFrom).toEqual(['goblin']);
    e.step(JSON.parse(JSON.stringify(notice())));
    expect(who(e, 'hero').hiddenFrom).toEqual([]);
  });
});
