// Cairn-Errant's range bands (source "Range Bands", "Retreat"): distances between combatants, and what a move does to
// an intent.
import { BANDS, bandLabel, present, type Band, type CairnContext, type Intent, type IntentAction, type Movement, type Tier } from './rules.ts';
import { classify, type IntentBase } from './intents.ts';
import { update } from '../../encounter/roster.ts';

// ---- range bands (source "Range Bands", "Retreat") ----

const bandIndex = (band: Band) => BANDS.indexOf(band);

/**
 * How far apart two foes are: bands are distances from the party (an enemy's) or from the nearest foe (a PC away from
 * the party), so two foes are as far apart as the farther of the two; null when neither band is set.
 */
export function distanceBetween(ctx: CairnContext, a: string, b: string): Band | null {
  const bandA = ctx.combatants[a]?.band;
  const bandB = ctx.combatants[b]?.band;
  if (bandA && bandB) return BANDS[Math.max(bandIndex(bandA), bandIndex(bandB))]!;
  if (bandA) return BANDS[bandIndex(bandA)]!;
  return bandB ? BANDS[bandIndex(bandB)]! : null;
}

/** What a side's foes look like on the range bands: how many are still in the fight, how many of those have no band, and the nearest band among the rest. */
interface FoeBands {
  present: number;
  unbanded: number;
  /** Index in BANDS of the nearest band set on a foe still in the fight; -1 when none is set. */
  nearest: number;
}

/** Per combatants record (replaced, never changed in place, on every change): the foe summary by side. */
const foeBandsMemo = new WeakMap<CairnContext['combatants'], { roster: string[]; bySide: Map<string, FoeBands> }>();

/** The foes of `side` on the range bands, counted once per state (nearestFoe asks it for every retreat intent). */
function foeBands(ctx: CairnContext, side: string): FoeBands {
  let memo = foeBandsMemo.get(ctx.combatants);
  if (!memo || memo.roster !== ctx.roster) {
    memo = { roster: ctx.roster, bySide: new Map() };
    foeBandsMemo.set(ctx.combatants, memo);
  }
  let summary = memo.bySide.get(side);
  if (!summary) {
    summary = { present: 0, unbanded: 0, nearest: -1 };
    for (const other of ctx.roster) {
      const c = ctx.combatants[other]!;
      if (c.side === side || !present(c)) continue;
      summary.present += 1;
      if (!c.band) summary.unbanded += 1;
      else if (summary.nearest === -1 || bandIndex(c.band) < summary.nearest) summary.nearest = bandIndex(c.band);
    }
    memo.bySide.set(side, summary);
  }
  return summary;
}

/**
 * The band of a combatant's nearest foe still in the fight; null when no band says. The distance to each foe is the
 * farther of the two bands (distanceBetween), so the nearest is the combatant's own band when a foe has none, else
 * the farther of its own band and the foes' nearest.
 */
export function nearestFoe(ctx: CairnContext, id: string): Band | null {
  const c = ctx.combatants[id]!;
  const foes = foeBands(ctx, c.side);
  const own = c.band ? bandIndex(c.band) : -1;
  if (own === -1) return foes.nearest === -1 ? null : BANDS[foes.nearest]!;
  if (foes.present === 0) return null;
  return BANDS[foes.unbanded > 0 ? own : Math.max(own, foes.nearest)]!;
}

/** What the range bands make of a declaration: the move and retreat it implies, and the note saying why. */
interface BandEffect {
  move: Movement;
  fromClose: boolean;
  bandNote: string | null;
}

/** The range bands fill in what the declaration leaves open: a retreat from Close, closing in before a melee strike. */
function bandEffect(ctx: CairnContext, id: string, action: IntentAction, targetId: string | null, move: Movement, fromClose: boolean): BandEffect {
  if (action === 'retreat') {
    const nearest = nearestFoe(ctx, id);
    if (nearest === null) return { move, fromClose, bandNote: null };
    return { move, fromClose: nearest === 'close', bandNote: `nearest foe ${bandLabel(nearest)}` };
  }
  if ((action === 'melee' || action === 'gambit') && targetId) {
    const distance = distanceBetween(ctx, id, targetId);
    if (distance === null || distance === 'close' || move !== 'none') return { move, fromClose, bandNote: null };
    // Not Close: "moving close to an enemy before making a melee attack" is a full turn.
    return { move: 'before', fromClose, bandNote: `from ${bandLabel(distance)}` };
  }
  return { move, fromClose, bandNote: null };
}

export function deriveIntent(ctx: CairnContext, id: string, base: IntentBase, declared: Intent['declared'], confirmed: Tier | null): Intent {
  const effect = bandEffect(ctx, id, base.action, base.targetId, declared.move, declared.fromClose ?? false);
  const intent: IntentBase = { ...base, move: effect.move, fromClose: effect.fromClose };
  return { ...intent, tier: confirmed ?? classify(intent, ctx.combatants[id]!), tierConfirmed: confirmed !== null, declared, bandNote: effect.bandNote };
}

/** An intent derived again from what was declared; the same intent when the bands change nothing in it. */
function rederive(ctx: CairnContext, id: string, intent: Intent): Intent {
  const confirmed = intent.tierConfirmed ? intent.tier : null;
  const { declared } = intent;
  const effect = bandEffect(ctx, id, intent.action, intent.targetId, declared.move, declared.fromClose ?? false);
  if (effect.move === intent.move && effect.fromClose === intent.fromClose && effect.bandNote === intent.bandNote && (confirmed !== null) === intent.tierConfirmed
    && (confirmed ?? classify(intent, ctx.combatants[id]!)) === intent.tier) return intent;
  const { tier: _tier, tierConfirmed: _confirmed, declared: _declared, bandNote: _note, ...base } = intent;
  return deriveIntent(ctx, id, base, declared, confirmed);
}

/** Bands changed while intents are open: every intent is derived again (a tier the GM confirmed stays). */
export function rederiveIntents(ctx: CairnContext): CairnContext {
  if (ctx.phase !== 'declare') return ctx;
  const intents: Record<string, Intent> = {};
  let changed = false;
  for (const [id, intent] of Object.entries(ctx.intents)) {
    intents[id] = rederive(ctx, id, intent);
    changed ||= intents[id] !== intent;
  }
  return { ...ctx, intents: changed ? intents : ctx.intents };
}

/** Why a band change is refused, or null. */
export function checkBand(ctx: CairnContext, id: string): string | null {
  const c = ctx.combatants[id];
  if (!c) return 'That combatant is not in this encounter.';
  return present(c) ? null : `${c.name} is no longer in the fight.`;
}

/** A melee exchange leaves both Close, once bands are tracked for them (a strike-and-leave moves the striker off). */
export function meleeCloses(ctx: CairnContext, attackerId: string, targetId: string): CairnContext {
  const intent = ctx.intents[attackerId];
  if (!intent || (intent.action !== 'melee' && intent.action !== 'gambit') || intent.move === 'after') return ctx;
  if (distanceBetween(ctx, attackerId, targetId) === null) return ctx;
  return update(update(ctx, attackerId, { band: 'close' }), targetId, { band: 'close' });
}
