// Guard (§3.4 step 4, R-F15): a target that cannot react keeps its reaction window open while someone could still
// guard it. The quick answer must agree, for every target of a blast, with the guard a GM would be allowed to send.
import { describe, expect, it } from 'vitest';
import * as combat from './combat.ts';
import { update } from '../../encounter/roster.ts';
import * as rules from './rules.ts';
import type { FactionsContext } from './rules.ts';
import { ctx, fight, seed } from './testing.ts';

/** A small seeded generator (mulberry32), so a failure replays the same fight. */
function seeded(start: number): () => number {
  let state = start >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Could anyone guard the current target: is a REACT guard:<id> accepted for some other combatant? */
function someGuardAccepted(state: FactionsContext): boolean {
  const t = state.pending!.targets[state.pending!.cursor]!;
  return state.roster.some((id) => id !== t.id && combat.reactProblem(state, { type: 'REACT', reaction: 'guard', guardId: id }) === null);
}

describe('someone could still guard the target (§3.4 step 4)', () => {
  it('agrees with the guards the rules accept, for every target of a blast, as the bystanders act, hide, move and fall', () => {
    const random = seeded(5);
    const seeds = [seed('hero', 'party'), ...Array.from({ length: 24 }, (_, i) => seed(`n${i}`, i % 2 ? 'party' : 'gm'))];
    const e = fight(seeds);
    for (const s of seeds) e.apply({ type: 'SET_ZONE', combatantId: s.id, zone: s.id === 'hero' || random() < 0.7 ? 'hall' : 'yard' });
    e.apply({ type: 'ATTACK', attackerId: 'hero', targetIds: [], kind: 'melee', blast: true, zone: 'hall' });
    let state = ctx(e);
    expect(state.pending?.stage).toBe('reaction');
    const targets = state.pending!.targets.length;
    expect(targets).toBeGreaterThan(5);
    let agreedTrue = 0;
    for (let step = 0; step < 200; step += 1) {
      const id = state.roster[Math.floor(random() * state.roster.length)]!;
      const change = Math.floor(random() * 5);
      state = update(state, id,
        change === 0 ? { acted: random() < 0.5 }
          : change === 1 ? { unaware: random() < 0.5 }
            : change === 2 ? { zone: random() < 0.3 ? null : random() < 0.5 ? 'hall' : 'yard' }
              : change === 3 ? { incapacitated: random() < 0.3 }
                : { surrendered: random() < 0.2 });
      for (let cursor = 0; cursor < targets; cursor += 1) {
        const at: FactionsContext = { ...state, pending: { ...state.pending!, cursor } };
        const expected = someGuardAccepted(at);
        expect(combat.canBeGuarded(at, at.pending!, at.pending!.targets[cursor]!), `target ${cursor} after step ${step}`).toBe(expected);
        if (expected) agreedTrue += 1;
      }
    }
    // Both answers came up often enough to mean something.
    expect(agreedTrue).toBeGreaterThan(100);
    expect(agreedTrue).toBeLessThan(200 * targets - 100);
  });
});
