// Cairn-Errant's order of a round (RULES.md §4.2 step 3–5, R-C6): the initiative DEX saves, clashes and moments.
import { canAct, emptyMoment, losesInitiative, weaponClass, weaponDice, type CairnCombatant, type CairnContext, type Clash, type Intent, type Moment, type Position, type Tier } from './rules.ts';
import { rulingsOf } from './options.ts';
import { update } from '../../encounter/roster.ts';

// ---- order: DEX saves, clashes, moments (§4.2 step 3–5) ----

const tiersOf = (ctx: CairnContext): (Tier | 'turn')[] => (rulingsOf(ctx.options).initiativeMode === 'simpleDex' ? ['turn'] : ['quick', 'full']);
const tierOfIntent = (ctx: CairnContext, intent: Intent): Tier | 'turn' => (rulingsOf(ctx.options).initiativeMode === 'simpleDex' ? 'turn' : intent.tier);
const tierRank = (tier: Tier | 'turn') => (tier === 'full' ? 1 : 0);

/** Who acts this round: able to act, with an intent. */
export function actors(ctx: CairnContext): string[] {
  return ctx.roster.filter((id) => ctx.intents[id] !== undefined && canAct(ctx.combatants[id], ctx.options));
}

/** The attack modifier an intent strikes with: enhanced and impaired cancel (R-C12); a failed save impairs. */
export function netPosition(ctx: CairnContext, id: string, intent: Intent): Position {
  const c = ctx.combatants[id]!;
  const impaired = intent.position === 'impaired' || c.failedCriticalSave;
  const enhanced = intent.position === 'enhanced';
  if (impaired && enhanced) return rulingsOf(ctx.options).enhancedImpairedCancel ? 'normal' : 'impaired';
  return impaired ? 'impaired' : enhanced ? 'enhanced' : 'normal';
}

/** Melee length index, longest first: Reach 0, slow 1, balanced 2, fast 3 (§4.2 Melee Clashes). */
function lengthIndex(c: CairnCombatant, intent: Intent, entering: boolean): number {
  const dice = weaponDice(c, intent);
  const reach = (intent.weapon === 'main' || intent.weapon === 'dual') && Boolean(c.sheet['weaponReach']);
  const indexOf = (die: number, isMain: boolean) => (isMain && reach ? 0 : ({ slow: 1, balanced: 2, fast: 3 } as const)[weaponClass(die)]);
  const indices = dice.map((die, i) => indexOf(die, i === 0));
  // A dual wielder striking with both goes at the slower weapon's position in this clash (§4.2 rule 5).
  const ranks = indices.map((index) => (entering ? index : 3 - index));
  return Math.max(...ranks);
}

/** Two combatants attacking each other in melee, sorted by R-C2; null when a DEX save must break the tie. */
export function findClashes(ctx: CairnContext, ids: string[]): Clash[] {
  // Source (Gambits): "For determining the priority of Gambits in the initiative order, use the size of your weapon as
  // described in Melee Clashes." With `gambitOrder: always`, an exchange with a gambit in it is ranked so even when
  // the optional clash rule is off; by default (the digest) only with it.
  const clashesOn = rulingsOf(ctx.options).meleeClashes;
  if (!clashesOn && rulingsOf(ctx.options).gambitOrder !== 'always') return [];
  const melee = (id: string) => {
    const intent = ctx.intents[id];
    return intent && (intent.action === 'melee' || intent.action === 'gambit') ? intent : null;
  };
  const clashes: Clash[] = [];
  const taken = new Set<string>();
  for (const a of ids) {
    const ia = melee(a);
    if (!ia || taken.has(a) || !ia.targetId) continue;
    const b = ia.targetId;
    const ib = melee(b);
    if (!ib || taken.has(b) || ib.targetId !== a || !ids.includes(b)) continue;
    if (!clashesOn && ia.action !== 'gambit' && ib.action !== 'gambit') continue;
    taken.add(a).add(b);
    const entering = ia.move === 'before' || ib.move === 'before';
    const modifier = (id: string, intent: Intent) => ({ enhanced: 0, normal: 1, impaired: 2 })[netPosition(ctx, id, intent)];
    const [ma, mb] = [modifier(a, ia), modifier(b, ib)];
    const [la, lb] = [lengthIndex(ctx.combatants[a]!, ia, entering), lengthIndex(ctx.combatants[b]!, ib, entering)];
    const tier = [tierOfIntent(ctx, ia), tierOfIntent(ctx, ib)].sort((x, y) => tierRank(x) - tierRank(y))[0]!;
    let first: string;
    let decidedBy: Clash['decidedBy'];
    // R-C2: enhanced / normal / impaired first (source: "Enhanced attacks go first in clashes", "Impaired attacks go
    // last in clashes"), then weapon length, then the DEX save.
    if (ma !== mb) [first, decidedBy] = [ma < mb ? a : b, 'modifier'];
    else if (la !== lb) [first, decidedBy] = [la < lb ? a : b, 'length'];
    else {
      // R-C2 third key: the usual DEX save for the PC (the two are always on opposite sides).
      const pc = ctx.combatants[a]!.side === 'party' ? a : b;
      const save = ctx.dexSaves[pc];
      first = save === undefined || save.passed ? pc : pc === a ? b : a;
      decidedBy = 'dex';
    }
    clashes.push({ a, b, entering, first, decidedBy, tier });
  }
  return clashes;
}

const clashNeedsSave = (clash: Clash) => clash.decidedBy === 'dex';
const clashPc = (ctx: CairnContext, clash: Clash) => (ctx.combatants[clash.a]!.side === 'party' ? clash.a : clash.b);

/** PCs who must roll an initiative DEX save this round and have not (§4.2 step 3; R-C6 auto-losers roll nothing). */
export function pendingDexSaves(ctx: CairnContext): string[] {
  if (ctx.phase !== 'order') return [];
  const ids = actors(ctx);
  const clashes = findClashes(ctx, ids);
  const inClash = new Set(clashes.flatMap((c) => [c.a, c.b]));
  const needed = new Set<string>();
  if (rulingsOf(ctx.options).initiativeMode === 'simpleDex') {
    // Base Cairn: one save at the start; later rounds keep it (a newcomer saves when it first acts).
    for (const id of ids) if (ctx.combatants[id]!.side === 'party' && !inClash.has(id)) needed.add(id);
  } else {
    for (const tier of tiersOf(ctx)) {
      const inTier = ids.filter((id) => !inClash.has(id) && tierOfIntent(ctx, ctx.intents[id]!) === tier);
      const pcs = inTier.filter((id) => ctx.combatants[id]!.side === 'party');
      if (pcs.length && inTier.length > pcs.length) for (const id of pcs) needed.add(id);
    }
  }
  for (const clash of clashes) if (clashNeedsSave(clash)) needed.add(clashPc(ctx, clash));
  return [...needed].filter((id) => ctx.dexSaves[id] === undefined && !losesInitiative(ctx.combatants[id]!));
}

/** The PCs whose initiative is lost without a roll this round (R-C6 second leg hit). */
export function autoLosers(ctx: CairnContext): string[] {
  return actors(ctx).filter((id) => ctx.combatants[id]!.side === 'party' && losesInitiative(ctx.combatants[id]!));
}

/** A DEX save: d20 ≤ DEX passes, 1 always passes and 20 always fails [base Cairn]; disadvantage keeps the worse (higher). */
export function saveResult(faces: number[], attribute: number): { kept: number; passed: boolean } {
  const kept = Math.max(...faces);
  return { kept, passed: kept === 1 || (kept !== 20 && kept <= attribute) };
}

/** Builds the round's moments once every DEX save is in: quick PC-pass | clashes | NPC | PC-fail, then the full tier. */
export function buildMoments(ctx: CairnContext): CairnContext {
  const ids = actors(ctx);
  const clashes = findClashes(ctx, ids);
  const inClash = new Set(clashes.flatMap((c) => [c.a, c.b]));
  const moments: Moment[] = [];
  for (const tier of tiersOf(ctx)) {
    const inTier = ids.filter((id) => !inClash.has(id) && tierOfIntent(ctx, ctx.intents[id]!) === tier);
    const pcs = inTier.filter((id) => ctx.combatants[id]!.side === 'party');
    const npcs = inTier.filter((id) => ctx.combatants[id]!.side === 'enemies');
    const contested = rulingsOf(ctx.options).initiativeMode === 'simpleDex' || (pcs.length > 0 && npcs.length > 0);
    const wins = (id: string) => !losesInitiative(ctx.combatants[id]!) && (ctx.dexSaves[id]?.passed ?? !contested);
    const pass = pcs.filter(wins);
    const fail = pcs.filter((id) => !wins(id));
    if (pass.length) moments.push({ tier, bucket: 'pcPass', ids: pass });
    // R-C3: a clash replaces the tier and the DEX save for its pair only; it strikes in its earlier tier, between
    // the PCs who won and the enemies.
    for (const clash of clashes.filter((c) => c.tier === tier)) {
      const second = clash.first === clash.a ? clash.b : clash.a;
      moments.push({ tier, bucket: 'clash', ids: [clash.first] }, { tier, bucket: 'clash', ids: [second] });
    }
    if (npcs.length) moments.push({ tier, bucket: 'npc', ids: npcs });
    if (fail.length) moments.push({ tier, bucket: 'pcFail', ids: fail });
  }
  return { ...ctx, clashes, moments, cursor: 0, moment: { ...emptyMoment(), pending: ctx.moment.pending }, phase: 'resolve' };
}

/** Opens a round: new declarations (the Errant way), or the kept order of base Cairn. */
export function openRound(ctx: CairnContext): CairnContext {
  const keepSaves = rulingsOf(ctx.options).initiativeMode === 'simpleDex';
  return {
    ...ctx,
    round: ctx.round + 1,
    phase: 'declare',
    intents: {},
    telegraphs: {},
    dexSaves: keepSaves ? ctx.dexSaves : {},
    brokenImprovised: [],
    disarmed: [],
    clashes: [],
    moments: [],
    cursor: 0,
    moment: { ...emptyMoment(), pending: ctx.moment.pending },
  };
}


// ---- initiative DEX saves (§4.2 step 3, R-C6) ----

/** Locking the intents: PCs who auto-lose (R-C6 second leg hit) are placed in the PC-fail bucket without a roll. */
export function beginOrder(ctx: CairnContext): CairnContext {
  const dexSaves = { ...ctx.dexSaves };
  for (const id of autoLosers(ctx)) dexSaves[id] = { faces: [], kept: 0, passed: false, auto: true, disadvantage: false };
  return { ...ctx, phase: 'order', dexSaves };
}

/** The dice of a PC's initiative DEX save: 2d20 keeping the worse (higher) after a leg result (R-C6). */
export const dexSaveDice = (c: CairnCombatant) => (c.nextInitiativeDisadvantage ? [20, 20] : [20]);

export function checkDexSave(ctx: CairnContext, id: string, faces: number[] | null): string | null {
  if (ctx.phase !== 'order') return 'No initiative DEX save is being rolled now.';
  const c = ctx.combatants[id];
  if (!c) return 'That combatant is not in this encounter.';
  if (!pendingDexSaves(ctx).includes(id)) {
    if (c.side !== 'party') return `${c.name} is an enemy: only the players make initiative DEX saves.`;
    if (losesInitiative(c)) return `${c.name} loses every initiative roll until the leg heals (R-C6): no roll.`;
    if (ctx.dexSaves[id]) return `${c.name} has already rolled the DEX save this round.`;
    return `${c.name} needs no DEX save: no enemy shares that tier.`;
  }
  const dice = dexSaveDice(c);
  if (!faces) return `${c.name}'s DEX save roll is missing.`;
  if (faces.length !== dice.length) return `${c.name}'s DEX save needs ${dice.length === 2 ? '2d20, keeping the worse (disadvantage, R-C6)' : '1d20'}: ${faces.length} given.`;
  const bad = faces.find((f) => !Number.isInteger(f) || f < 1 || f > 20);
  return bad === undefined ? null : `${bad} is not a face of a d20.`;
}

export function recordDexSave(ctx: CairnContext, id: string, roll: { faces: number[] }): CairnContext {
  const c = ctx.combatants[id]!;
  const { kept, passed } = saveResult(roll.faces, c.dex);
  const next = update(ctx, id, { nextInitiativeDisadvantage: false }); // R-C6: the next save only
  return { ...next, dexSaves: { ...next.dexSaves, [id]: { faces: roll.faces, kept, passed, auto: false, disadvantage: roll.faces.length === 2 } } };
}
