// Who holds whom (§3.4 step 10) is read once per combatant record: every row of the view asks whether its combatant
// holds someone, and a scan of the roster for each made a 200-combatant view read 40,000 combatants.
import { describe, expect, it } from 'vitest';
import type { EncounterSnapshot } from '../../encounter/types.ts';
import { factionsEncounter } from './encounter.ts';
import * as rules from './rules.ts';
import type { FactionsContext } from './rules.ts';
import { ctx, fight, seed } from './testing.ts';

/** The snapshot with its combatants read through a counter of reads. */
function counted(snapshot: EncounterSnapshot): { snapshot: EncounterSnapshot; reads: () => number } {
  let reads = 0;
  const context = snapshot.context as FactionsContext;
  const combatants = new Proxy(context.combatants, { get: (target, key) => ((reads += 1), Reflect.get(target, key)) });
  return {
    snapshot: { ...snapshot, matches: snapshot.matches.bind(snapshot), can: snapshot.can.bind(snapshot), context: { ...context, combatants } } as EncounterSnapshot,
    reads: () => reads,
  };
}

describe('grabs', () => {
  it('are found by holder, the same as a scan of the roster, and a view reads each combatant a few times, not once per row', () => {
    const seeds = [seed('hero', 'party'), ...Array.from({ length: 79 }, (_, i) => seed(`n${i}`, i % 2 ? 'party' : 'gm'))];
    const e = fight(seeds);
    const state = ctx(e);
    const held = { ...state, combatants: { ...state.combatants, n1: { ...state.combatants['n1']!, grabbedBy: 'hero' }, n3: { ...state.combatants['n3']!, grabbedBy: 'hero' } } };
    expect(rules.grabbing(held, 'hero')).toBe('n1');
    expect(rules.grabbing(held, 'n0')).toBeNull();
    const released = rules.releaseGrabs(held, 'hero');
    expect([released.combatants['n1']!.grabbedBy, released.combatants['n3']!.grabbedBy]).toEqual([null, null]);

    const { snapshot, reads } = counted(e.snapshot);
    const view = factionsEncounter.view(snapshot);
    expect(view.order).toHaveLength(80);
    expect(reads()).toBeLessThan(80 * 20);
  });
});
