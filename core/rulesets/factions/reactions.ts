// Reactions in Factions (RULES.md §3.4 step 4, R-F5): each takes the reactor's turn. Who may react, the counters
// a prompt offers (R-F12), hide behind and guard (R-F15, R-F14), the checks, and the reaction windows that move from
// target to target until the attack goes to its damage roll.
import { nameOf, update } from '../../encounter/roster.ts';
import type { AttackInput, CombatEvent } from './combat.ts';
import { attackerProblem, d20Problem, faces, legalityProblem, nearby, normalizeSpec, passes, reactorProblem, saveReasons } from './attack-spec.ts';
import { markUsed } from './health.ts';
import type { FactionsCombatant, FactionsContext, PendingAttack, PendingTarget } from './rules.ts';
import { canAct, gone, say, standing } from './rules.ts';
import { letGoUnless, reveal } from './turn.ts';
import { rulingsOf } from './options.ts';

const currentTarget = (p: PendingAttack): PendingTarget | undefined => p.targets[p.cursor];

/** Why this target cannot react at all (§3.4 step 4), or null. */
export function reactionBlocker(ctx: FactionsContext, p: PendingAttack, t: PendingTarget): string | null {
  const c = ctx.combatants[t.id]!;
  if (p.opportunity) return `${c.name} cannot react to an opportunity attack: the turn is already being spent.`;
  if (t.id === p.attackerId) return `${c.name} is caught in their own blast.`;
  if (t.surprised) return `${c.name} is taken by surprise by a concealed attacker and cannot react.`;
  if (c.unaware) return `${c.name} is unaware of the attacker and cannot react.`;
  if (t.heldShield && !rulingsOf(ctx.options).grabbedMayReact) return `${c.name} is held and gets no reaction of their own (R-F14).`;
  if (gone(c) || !canAct(c)) return `${c.name} cannot act and cannot react.`;
  if (c.acted) return `${c.name} has already used this round's turn and cannot react.`;
  return null;
}

/** Hide behind and Guard may chain, never onto the same character twice (R-F15). */
function redirectProblem(ctx: FactionsContext, p: PendingAttack, t: PendingTarget, onto: FactionsCombatant | undefined, how: string): string | null {
  if (!onto) return 'That combatant is not in this encounter.';
  const target = ctx.combatants[t.id]!;
  if (onto.id === p.attackerId) return `${onto.name} is the attacker.`;
  if (onto.id === t.id || t.chain.includes(onto.id)) return `${onto.name} has already been the target of this attack (R-F15).`;
  if (rulingsOf(ctx.options).redirectionChain === 'once' && t.chain.length > 0) return `This campaign allows one redirection per attack (R-F15); the attack has already changed target.`;
  if (p.targets.some((other) => other.id === onto.id)) return `${onto.name} is already a target of this attack.`;
  if (gone(onto) || onto.incapacitated) return `${onto.name} cannot ${how}.`;
  if (!nearby(target, onto, false)) return `${onto.name} is not nearby ${target.name}.`;
  return null;
}

/** Someone nearby could still guard this target. */
export function canBeGuarded(ctx: FactionsContext, p: PendingAttack, t: PendingTarget): boolean {
  const target = ctx.combatants[t.id]!;
  const targeted = new Set(p.targets.map((other) => other.id));
  // A few checks both sentences below make, asked first without words: a blast with many targets asks this of every
  // combatant for every target.
  const mayGuard = (onto: FactionsCombatant | undefined): onto is FactionsCombatant =>
    onto !== undefined && canAct(onto) && !onto.acted && !onto.unaware && !targeted.has(onto.id) && nearby(target, onto, false);
  return ctx.roster.some((id) => id !== t.id && mayGuard(ctx.combatants[id])
    && redirectProblem(ctx, p, t, ctx.combatants[id], 'guard') === null && reactorProblem(ctx, ctx.combatants[id], 'guard') === null);
}

/** The reactions a target (or a guard) may choose (§3.4 step 4): each its own value, the combatant it names in its own field. */
export const REACTIONS = ['none', 'dodge', 'counter', 'hideBehind', 'guard'] as const;
export type Reaction = (typeof REACTIONS)[number];

/** The counters a reaction prompt offers as buttons (R-F12): each a preset attack back at the attacker. */
export const COUNTER_PRESET_KEYS = ['melee', 'unarmed', 'ranged', 'rangedFar', 'disarm', 'grapple'] as const;
export type CounterPreset = (typeof COUNTER_PRESET_KEYS)[number];

/** A `counter` description in the event adds to the preset (an improvised weapon's die, cover...). */
export const COUNTER_PRESETS: Record<CounterPreset, { input: AttackInput; label: string }> = {
  melee: { input: { kind: 'melee', weapon: 'weapon' }, label: 'Counter: melee, with the weapon' },
  unarmed: { input: { kind: 'melee', weapon: 'unarmed' }, label: 'Counter: unarmed (d4 impaired)' },
  ranged: { input: { kind: 'ranged', weapon: 'weapon', range: 'withinHalf' }, label: 'Counter: ranged, within half range' },
  rangedFar: { input: { kind: 'ranged', weapon: 'weapon', range: 'beyondHalf' }, label: 'Counter: ranged, beyond half range (WIT save)' },
  disarm: { input: { kind: 'melee', weapon: 'unarmed', effect: 'disarm' }, label: 'Counter: disarm (non-lethal, resolved last)' },
  grapple: { input: { kind: 'melee', weapon: 'unarmed', effect: 'grapple' }, label: 'Counter: grapple (non-lethal, resolved last)' },
};

/** The counter a REACT describes: its preset (a melee counter with the weapon when none is named), with the event's own description on top. */
export function counterInput(e: Extract<CombatEvent, { type: 'REACT' }>): AttackInput {
  return { ...COUNTER_PRESETS[e.counterPreset ?? 'melee'].input, ...(e.counter ?? {}) };
}

/** The WIT save to hit with a counter rides in the counter's description, or (sent from a prompt button) in `roll`. */
const counterSave = (e: Extract<CombatEvent, { type: 'REACT' }>) => e.counter?.attackRoll ?? e.roll ?? null;

export function reactProblem(ctx: FactionsContext, e: Extract<CombatEvent, { type: 'REACT' }>): string | null {
  const p = ctx.pending;
  if (!p || p.stage !== 'reaction') return 'No attack is waiting for a reaction.';
  const t = currentTarget(p)!;
  const target = ctx.combatants[t.id]!;
  const kind = e.reaction;
  if (kind === 'none') return null;
  if (kind === 'guard') {
    const guard = e.guardId ? ctx.combatants[e.guardId] : undefined;
    return redirectProblem(ctx, p, t, guard, 'guard') ?? reactorProblem(ctx, guard, 'guard');
  }
  const blocker = reactionBlocker(ctx, p, t);
  if (blocker) return blocker;
  switch (kind) {
    case 'dodge':
      if (p.spec.kind === 'melee' && p.spec.blast && !rulingsOf(ctx.options).meleeBlastDodgeable) return 'A melee blast cannot miss, not even by a dodge, in this campaign (R-F19).';
      return d20Problem(e.roll, `${target.name}'s AGI save to dodge`);
    case 'counter': {
      if (p.counter) return `${nameOf(ctx, p.counter.reactorId)} has already countered: an attack with several targets can be countered by one of them.`;
      const attacker = ctx.combatants[p.attackerId]!;
      if (!standing(attacker)) return `${attacker.name} is in no state to be countered.`;
      const input = counterInput(e);
      const spec = normalizeSpec(input, target);
      const problem = attackerProblem(ctx, target, spec, input.die);
      if (problem) return problem;
      if (spec.blast) return 'A counter is an attack on the attacker alone.';
      if (!rulingsOf(ctx.options).counterMustBeLegal) return null;
      const legal = legalityProblem(ctx, target, [attacker], spec, false);
      if (legal) return `Not a fitting counter (R-F12): ${legal}`;
      return saveReasons(spec, false).length ? d20Problem(counterSave(e), `${target.name}'s WIT save to hit with the counter (R-F12)`) : null;
    }
    case 'hideBehind': {
      const behind = e.behindId ? ctx.combatants[e.behindId] : undefined;
      return redirectProblem(ctx, p, t, behind, 'be hidden behind');
    }
    default:
      return 'A reaction is none, dodge, counter, hideBehind or guard.';
  }
}

/** Moves the reaction window to the next target who can react; with nobody left, the attack goes to damage. */
export function openWindows(ctx: FactionsContext): FactionsContext {
  let next = ctx;
  let p = next.pending!;
  while (p.cursor < p.targets.length) {
    const t = p.targets[p.cursor]!;
    if (t.reaction !== null) {
      p = { ...p, cursor: p.cursor + 1 };
      continue;
    }
    const blocker = reactionBlocker(next, p, t);
    if (blocker === null) return { ...next, pending: p };
    // The target cannot react itself, but a nearby character may still guard it (not against surprise or an opportunity attack).
    if (!p.opportunity && !t.surprised && t.id !== p.attackerId && canBeGuarded(next, p, t)) return { ...next, pending: p };
    next = say(next, 'attack', blocker, t.heldShield ? ['R-F14'] : [], t.id);
    p = { ...p, targets: p.targets.map((x, i) => (i === p.cursor ? { ...x, reaction: 'cannot' as const } : x)), cursor: p.cursor + 1 };
  }
  return { ...next, pending: { ...p, stage: 'resolve' } };
}

function usesTurnToReact(ctx: FactionsContext, id: string): FactionsContext {
  const next = update(ctx, id, { acted: true });
  return { ...next, history: next.history.concat([{ round: next.round, phase: next.phase!, id, kind: 'reaction' }]) };
}

export function react(ctx: FactionsContext, e: Extract<CombatEvent, { type: 'REACT' }>): FactionsContext {
  const p = ctx.pending!;
  const t = p.targets[p.cursor]!;
  const target = ctx.combatants[t.id]!;
  const kind = e.reaction;
  const setTarget = (c: FactionsContext, patch: Partial<PendingTarget>, advance: boolean): FactionsContext => {
    const q = c.pending!;
    return { ...c, pending: { ...q, targets: q.targets.map((x, i) => (i === q.cursor ? { ...x, ...patch } : x)), cursor: q.cursor + (advance ? 1 : 0) } };
  };
  const outside = ['R-F5'];
  let next = ctx;
  switch (kind) {
    case 'none':
      next = say(next, 'attack', `${target.name} does not react.`, [], t.id);
      return openWindows(setTarget(next, { reaction: 'none' }, true));
    case 'dodge': {
      const face = e.roll!.faces[0]!;
      const dodged = passes(face, target.agi);
      next = letGoUnless(usesTurnToReact(next, t.id), t.id, null);
      next = say(next, 'attack', `${target.name} reacts with a dodge (the reaction is this round's turn): AGI save d20 ${faces(e.roll)} against AGI ${target.agi}, ${dodged ? 'the attack misses' : 'failed'}.`, [...outside, ...(p.spec.blast && p.spec.kind === 'melee' ? ['R-F19'] : [])], t.id);
      return openWindows(setTarget(next, { reaction: dodged ? 'dodged' : 'dodgeFailed', missed: dodged }, true));
    }
    case 'counter': {
      const spec = normalizeSpec(counterInput(e), target);
      const legalOn = rulingsOf(ctx.options).counterMustBeLegal;
      const reasons = legalOn ? saveReasons(spec, false) : [];
      let save: PendingAttack['save'] = { needed: false, face: null, passed: true };
      const weapon = spec.weapon === 'unarmed' ? 'unarmed' : spec.weapon === 'weapon' ? `d${spec.die}` : `${spec.weapon === 'shield' ? 'the shield' : 'an improvised weapon'}, d${spec.die}`;
      const what = spec.effect === 'damage' ? `a ${spec.kind} attack${spec.kind === 'ranged' ? ` ${spec.range === 'beyondHalf' ? 'beyond' : 'within'} half range` : ''} (${weapon})` : `a ${spec.effect} attempt (non-lethal, resolved last)`;
      let text = `${target.name} counters (the reaction is this round's turn) with ${what} on ${nameOf(ctx, p.attackerId)}`;
      if (reasons.length) {
        const roll = counterSave(e)!;
        const face = roll.faces[0]!;
        save = { needed: true, face, passed: passes(face, target.wit) };
        text += `; WIT save to hit (${reasons.join(', ')}): d20 ${faces(roll)} against WIT ${target.wit}, ${save.passed ? 'hit' : 'miss'}`;
      }
      // A counter is an attack: on the attacker it keeps hold of someone held only if the attacker is the one held.
      next = letGoUnless(usesTurnToReact(next, t.id), t.id, p.attackerId);
      next = markUsed(next, t.id, spec.weapon === 'weapon' ? ['weapon'] : spec.weapon === 'shield' ? ['shield'] : []);
      next = markUsed(next, p.attackerId, ['shield', 'armour']);
      next = say(next, 'attack', `${text}.${spec.effect === 'damage' ? ' Both roll damage together.' : ''}`, [...outside, ...(legalOn ? ['R-F12'] : [])], t.id);
      // source: "Actions which might reveal a character include: attacking": a counter is an attack.
      next = reveal(next, t.id, 'attacking');
      next = { ...next, pending: { ...next.pending!, counter: { reactorId: t.id, spec, save } } };
      return openWindows(setTarget(next, { reaction: 'counter' }, true));
    }
    case 'hideBehind': {
      const behind = ctx.combatants[e.behindId!]!;
      const heldShield = behind.grabbedBy === t.id;
      next = letGoUnless(usesTurnToReact(next, t.id), t.id, behind.id);
      next = markUsed(next, behind.id, ['shield', 'armour']);
      next = say(next, 'attack', `${target.name} hides behind ${behind.name}${heldShield ? ', who is held and cannot refuse' : ', who agrees'} (the reaction is ${target.name}'s turn): ${behind.name} becomes the target and may react.`, [...outside, 'R-F15', ...(heldShield ? ['R-F14'] : [])], t.id);
      next = setTarget(next, { id: behind.id, chain: [...t.chain, t.id], heldShield, reaction: null, missed: false }, false);
      return openWindows(next);
    }
    case 'guard': {
      const guard = ctx.combatants[e.guardId!]!;
      next = letGoUnless(usesTurnToReact(next, guard.id), guard.id, null);
      next = markUsed(next, guard.id, ['shield', 'armour']);
      next = say(next, 'attack', `${guard.name} guards ${target.name} (the reaction is ${guard.name}'s turn) and becomes the target; having spent the reaction, ${guard.name} cannot dodge or counter.`, [...outside, 'R-F15'], guard.id);
      return openWindows(setTarget(next, { id: guard.id, chain: [...t.chain, t.id], heldShield: false, reaction: 'guarding', missed: false }, true));
    }
  }
  return next;
}
