// Range bands (source "Range Bands", "Retreat"): the nearest foe and the intents derived from the bands, checked
// against the rule read literally over many band layouts, as the bands change one at a time during declarations.
import { describe, expect, it } from 'vitest';
import { defaultOptions } from '../options.ts';
import { cairnErrantOptions } from './options.ts';
import * as rules from './rules.ts';
import * as bands from './bands.ts';
import * as declarations from './declarations.ts';
import * as order from './order.ts';
import * as roster from './roster.ts';
import * as shared from '../../encounter/roster.ts';
import type { Band, CairnContext } from './rules.ts';
import type { IntentInput } from './declarations.ts';
import { seed } from './testing.ts';

/** A small seeded generator (mulberry32), so a failure replays the same layout. */
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

const BAND_OR_NONE: (Band | null)[] = [null, 'close', 'near', 'far', 'distant'];

/** The distance between two foes: the farther of their bands; null when neither has one. */
function distance(ctx: CairnContext, a: string, b: string): number | null {
  const known = [ctx.combatants[a]!.band, ctx.combatants[b]!.band].filter((band): band is Band => band !== null).map((band) => rules.BANDS.indexOf(band));
  return known.length ? Math.max(...known) : null;
}

/** The nearest foe still in the fight, by the letter of the rule: the least distance to any of them. */
function nearestByRule(ctx: CairnContext, id: string): Band | null {
  const side = ctx.combatants[id]!.side;
  const distances = ctx.roster
    .filter((other) => ctx.combatants[other]!.side !== side && ctx.combatants[other]!.out === null)
    .map((other) => distance(ctx, id, other))
    .filter((d): d is number => d !== null);
  return distances.length ? rules.BANDS[Math.min(...distances)]! : null;
}

function declaring(count: number): CairnContext {
  const seeds = Array.from({ length: count }, (_, i) => seed(`c${i}`, i % 3 === 0 ? 'party' : 'enemies'));
  const ctx = shared.addSeeds(roster.ROSTER, rules.initialContext({ options: defaultOptions(cairnErrantOptions), carried: {} }), seeds);
  return order.openRound(ctx);
}

describe('the nearest foe (source "Retreat")', () => {
  it('is the least of the distances to every foe still in the fight, however the bands and departures change', () => {
    const random = seeded(7);
    let ctx = declaring(24);
    for (let step = 0; step < 400; step += 1) {
      const id = ctx.roster[Math.floor(random() * ctx.roster.length)]!;
      if (random() < 0.15) ctx = shared.update(ctx, id, { out: random() < 0.5 ? null : { kind: 'dead', reason: 'test', round: 1 } });
      else ctx = shared.update(ctx, id, { band: BAND_OR_NONE[Math.floor(random() * BAND_OR_NONE.length)]! });
      for (const other of ctx.roster) expect(bands.nearestFoe(ctx, other), `${other} after step ${step}`).toBe(nearestByRule(ctx, other));
    }
  });

  it('is null with no foe left, and with no band set on either side', () => {
    let ctx = declaring(4);
    expect(ctx.roster.map((id) => bands.nearestFoe(ctx, id))).toEqual([null, null, null, null]);
    ctx = shared.update(ctx, 'c0', { band: 'far' });
    expect(bands.nearestFoe(ctx, 'c0')).toBe('far');
    for (const id of ['c1', 'c2']) ctx = shared.update(ctx, id, { out: { kind: 'retreated', reason: 'test', round: 1 } });
    expect(bands.nearestFoe(ctx, 'c0')).toBeNull();
  });
});

describe('intents follow the bands while they are declared (source "Range Bands")', () => {
  it('every intent, after any sequence of band changes, is what declaring it now would give', () => {
    const random = seeded(11);
    let ctx = declaring(30);
    const inputs = new Map<string, IntentInput>();
    const actions: IntentInput['action'][] = ['retreat', 'melee', 'gambit', 'ranged', 'move', 'other'];
    for (const id of ctx.roster) {
      const c = ctx.combatants[id]!;
      const foes = ctx.roster.filter((other) => ctx.combatants[other]!.side !== c.side);
      const action = actions[Math.floor(random() * actions.length)]!;
      const input: IntentInput = {
        combatantId: id, action,
        ...(action === 'melee' || action === 'gambit' || action === 'ranged' ? { targetId: foes[Math.floor(random() * foes.length)]! } : {}),
        ...(action === 'retreat' && random() < 0.5 ? { fromClose: random() < 0.5 } : {}),
        ...(action === 'melee' && random() < 0.3 ? { move: 'after' as const } : {}),
      };
      inputs.set(id, input);
      ctx = declarations.declare(ctx, input);
    }
    for (let step = 0; step < 150; step += 1) {
      const id = ctx.roster[Math.floor(random() * ctx.roster.length)]!;
      const before = ctx.intents;
      ctx = bands.rederiveIntents(shared.update(ctx, id, { band: BAND_OR_NONE[Math.floor(random() * BAND_OR_NONE.length)]! }));
      for (const [intentOf, input] of inputs) {
        const fresh = declarations.declare(ctx, input).intents[intentOf]!;
        // The same values in the same order: the intents are stored and exported as they are.
        expect(JSON.stringify(ctx.intents[intentOf]), `${intentOf} after step ${step}`).toBe(JSON.stringify(fresh));
      }
      expect(Object.keys(ctx.intents)).toEqual(Object.keys(before));
    }
  });

  it('a tier the GM confirmed stays through band changes; the band note still follows', () => {
    let ctx = declaring(3);
    ctx = shared.update(ctx, 'c1', { band: 'close' });
    ctx = declarations.declare(ctx, { combatantId: 'c0', action: 'melee', targetId: 'c1' });
    expect([ctx.intents['c0']!.tier, ctx.intents['c0']!.bandNote]).toEqual(['quick', null]);
    ctx = { ...ctx, intents: { ...ctx.intents, c0: { ...ctx.intents['c0']!, tier: 'quick', tierConfirmed: true } } };
    ctx = bands.rederiveIntents(shared.update(ctx, 'c1', { band: 'far' }));
    expect(ctx.intents['c0']).toMatchObject({ tier: 'quick', tierConfirmed: true, move: 'before', bandNote: 'from Far' });
    ctx = bands.rederiveIntents(shared.update(ctx, 'c1', { band: 'close' }));
    expect(ctx.intents['c0']).toMatchObject({ tier: 'quick', tierConfirmed: true, move: 'none', bandNote: null });
  });
});
