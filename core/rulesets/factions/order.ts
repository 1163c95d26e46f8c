// Factions' order policy (RULES.md §3.2 ordering rules): the ambush bonus turn, rounds with their fast and slow
// phases, the initiative holder choosing who goes first, the take-a-turn-or-pass loop with its pass streak, the end of
// the fight (R-F10), removals and late arrivals, and the question that must be answered before anything else.
import * as roster from '../../encounter/roster.ts';
import type { CombatantSeed } from '../../encounter/types.ts';
import { agrees, isPluralName, possessive } from '../../words.ts';
import { nameOf, update } from '../../encounter/roster.ts';
import type { FactionsCombatant, FactionsContext, Phase, Roll } from './rules.ts';
import { canAct, combatantFromSeed, defaultGroupId, factionLabel, FRESH_TURN, gone, releaseGrabs, say, standing } from './rules.ts';
import { joinGroup, ROSTER } from './setup.ts';
import { rulingsOf } from './options.ts';
import { eachCombatant } from '../../encounter/combatant-table.ts';

/** The chaos of combat times the active character's declaration: "Each Player has 15 seconds to declare". */
export const declarationTimed = (ctx: FactionsContext): boolean => ctx.chaos && ctx.activeId !== null && ctx.combatants[ctx.activeId]?.pc === true;

// ---- the order policy (§3.2 ordering rules) ----

export const hasAmbushers = (ctx: FactionsContext) => !ctx.ambushDone && Object.values(ctx.combatants).some((c) => c.ambusher && canAct(c));

export function openAmbush(ctx: FactionsContext): FactionsContext {
  const who = ctx.roster.filter((id) => ctx.combatants[id]!.ambusher).map((id) => nameOf(ctx, id));
  return say({ ...ctx, phase: 'ambush', current: null, passStreak: 0, firstFaction: null }, 'round', `Ambush: ${who.join(', ')} play a bonus turn before round 1; only they act.`, ['R-F2']);
}

/** A round opens (roundStart): everyone's turn is back; with fast/slow on the FAT is rolled first. */
export function openRound(ctx: FactionsContext): FactionsContext {
  const combatants = eachCombatant(ctx.combatants, (c) => ({ ...c, acted: false }));
  const phase: Phase = ctx.fastSlow ? 'fast' : 'normal';
  const round = ctx.round + 1;
  const next: FactionsContext = { ...ctx, combatants, round, phase, ambushDone: true, fat: null, firstFaction: null, current: null, passStreak: 0 };
  return say(next, 'round', `Round ${round} begins${ctx.fastSlow ? ': roll the fast action threshold' : ''}.`);
}

export function checkFat(roll: Roll | null | undefined): string | null {
  if (!roll || roll.faces.length !== 1) return 'The fast action threshold is one d20.';
  const face = roll.faces[0]!;
  return Number.isInteger(face) && face >= 1 && face <= 20 ? null : `${face} is not a face of a d20.`;
}

export function setFat(ctx: FactionsContext, roll: Roll): FactionsContext {
  const fat = roll.faces[0]!;
  const fast = ctx.roster.filter((id) => canAct(ctx.combatants[id]!) && ctx.combatants[id]!.wit >= fat).map((id) => nameOf(ctx, id));
  return say({ ...ctx, fat }, 'round', `Fast action threshold: d20 [${fat}]${roll.source === 'manual' ? ' (typed in)' : ''}. Fast phase: ${fast.length ? fast.join(', ') : 'nobody'} (WIT ${fat} or more).`);
}

/** R-F6: with fast/slow on, the holder chooses again in the slow phase unless the campaign chooses once per round. */
export const firstFactionKnown = (ctx: FactionsContext) => ctx.phase === 'slow' && rulingsOf(ctx.options).initiativePerPhase === 'oncePerRound' && ctx.firstFaction !== null;

export function startAtKnownFirst(ctx: FactionsContext): FactionsContext {
  return say({ ...ctx, current: ctx.firstFaction }, 'order', `${agrees(factionLabel(ctx, ctx.firstFaction), 'acts', 'act')} first again in the slow phase.`, ['R-F6']);
}

export function checkChooseFirst(ctx: FactionsContext, id: string): string | null {
  if (!ctx.cycle.includes(id)) return 'Choose one of the factions in this fight.';
  return null;
}

export function chooseFirst(ctx: FactionsContext, id: string): FactionsContext {
  const phase = ctx.phase === 'normal' || ctx.phase === null ? '' : ` in the ${ctx.phase} phase`;
  const rulings = ctx.phase === 'fast' || ctx.phase === 'slow' ? ['R-F6'] : ctx.phase === 'ambush' ? ['R-F2'] : [];
  return say({ ...ctx, current: id, firstFaction: ctx.firstFaction ?? id, passStreak: 0 }, 'order', `${agrees(factionLabel(ctx, ctx.initiative), 'holds', 'hold')} the initiative and ${isPluralName(factionLabel(ctx, ctx.initiative)) ? 'send' : 'sends'} ${factionLabel(ctx, id)} first${phase}.`, rulings);
}

/** Who may take a turn for a faction now (the guard of §3.2: faction, not acted, able, FAT, ambush). */
export function isEligible(ctx: FactionsContext, c: FactionsCombatant): boolean {
  if (c.faction !== ctx.current || c.acted || !canAct(c)) return false;
  if (ctx.phase === 'fast' && (ctx.fat === null || c.wit < ctx.fat)) return false;
  if (ctx.phase === 'ambush' && !c.ambusher) return false;
  return true;
}

export const eligibleNow = (ctx: FactionsContext) => ctx.roster.filter((id) => isEligible(ctx, ctx.combatants[id]!));

/** Could still act in this phase if its faction picks it (for the runner's statuses). */
export function couldActThisPhase(ctx: FactionsContext, c: FactionsCombatant): boolean {
  if (c.acted || !canAct(c)) return false;
  if (ctx.phase === 'fast' && ctx.fat !== null && c.wit < ctx.fat) return false;
  if (ctx.phase === 'ambush' && !c.ambusher) return false;
  return true;
}

const nextFaction = (ctx: FactionsContext, key: string | null) => {
  const index = key === null ? -1 : ctx.cycle.indexOf(key);
  return ctx.cycle[(index + 1) % ctx.cycle.length]!;
};

/** R-F4: the phase ends once every faction has passed in a row, wherever the run began. */
export const phaseOver = (ctx: FactionsContext) => ctx.current !== null && ctx.passStreak >= ctx.cycle.length;

/** R-F3: a faction with nobody eligible passes automatically, and the pass counts. */
export const mustPass = (ctx: FactionsContext) => ctx.current !== null && !phaseOver(ctx) && !ctx.roster.some((id) => isEligible(ctx, ctx.combatants[id]!));

export function autoPass(ctx: FactionsContext): FactionsContext {
  const who = factionLabel(ctx, ctx.current);
  const next = { ...ctx, passStreak: ctx.passStreak + 1, current: nextFaction(ctx, ctx.current) };
  return say(next, 'order', `${agrees(who, 'has', 'have')} nobody who can act: automatic pass (${next.passStreak} in a row).`, ['R-F3', 'R-F4']);
}

/** SELECT_CHARACTER: one of the faction's characters, or a pass (`pass: true`), never both. */
export function checkSelect(ctx: FactionsContext, choice: { combatantId?: string; pass?: true }): string | null {
  if (choice.pass) return choice.combatantId === undefined ? null : 'Send a character or pass, not both.';
  const id = choice.combatantId;
  if (id === undefined) return 'Choose a character to send, or pass.';
  const c = ctx.combatants[id];
  if (!c) return 'That combatant is not in this encounter.';
  if (c.faction !== ctx.current) return `It is ${possessive(factionLabel(ctx, ctx.current))} go, not ${possessive(factionLabel(ctx, c.faction))}.`;
  if (gone(c)) return `${c.name} is out of the fight.`;
  if (c.incapacitated) return `${c.name} is incapacitated and cannot act.`;
  if (c.surrendered) return `${c.name} has surrendered.`;
  if (c.acted) return `${c.name} has already used this round's turn${ctx.history.some((h) => h.round === ctx.round && h.id === id && h.kind === 'reaction') ? ' on a reaction' : ''}.`;
  if (ctx.phase === 'fast' && ctx.fat !== null && c.wit < ctx.fat) return `${c.name}'s WIT ${c.wit} is below the fast action threshold ${ctx.fat}: wait for the slow phase.`;
  if (ctx.phase === 'ambush' && !c.ambusher) return `Only the ambushers act in the ambush bonus turn; ${c.name} was not concealed.`;
  return null;
}

/** SELECT_CHARACTER: the faction sends one character (its turn resets the pass streak), or passes (rule 4). */
export function selectOrPass(ctx: FactionsContext, id: string | null): FactionsContext {
  if (id === null) {
    const who = factionLabel(ctx, ctx.current);
    const next = { ...ctx, passStreak: ctx.passStreak + 1, current: nextFaction(ctx, ctx.current) };
    return say(next, 'order', `${agrees(who, 'passes', 'pass')} (${next.passStreak} in a row); ${isPluralName(who) ? 'their' : 'its'} characters may still act later this ${ctx.phase === 'normal' ? 'round' : 'phase'}.`, ['R-F3', 'R-F4']);
  }
  const c = ctx.combatants[id]!;
  const next: FactionsContext = {
    ...update(ctx, id, { acted: true }),
    activeId: id,
    passStreak: 0,
    turn: FRESH_TURN,
    history: ctx.history.concat([{ round: ctx.round, phase: ctx.phase!, id, kind: 'turn' }]),
  };
  const chaos = ctx.chaos && c.pc ? ' 15 seconds to declare the turn.' : '';
  return say(next, 'turn', `${agrees(factionLabel(ctx, c.faction), 'sends', 'send')} ${c.name}: a bonus action, a main action or a second bonus action, and one zone of movement.${chaos}`, [], id);
}

/** The active turn ends: the faction cursor moves on (rule 3). */
export function endTurn(ctx: FactionsContext, why: string | null = null): FactionsContext {
  const id = ctx.activeId;
  const next = { ...ctx, activeId: null, turn: FRESH_TURN, current: nextFaction(ctx, ctx.current) };
  return why ? say(next, 'turn', why, [], id) : next;
}

/** A phase ends on consecutive passes: ambush → round 1, fast → slow, otherwise → the morale phase. */
export function closePhase(ctx: FactionsContext): FactionsContext {
  const lost = ctx.roster.filter((id) => couldActThisPhase(ctx, ctx.combatants[id]!)).map((id) => nameOf(ctx, id));
  if (ctx.phase === 'ambush') {
    const combatants = eachCombatant(ctx.combatants, (c) => ({ ...c, acted: false }));
    return say({ ...ctx, combatants, phase: null, ambushDone: true, current: null, passStreak: 0 }, 'round', 'Every faction passed in a row: the ambush bonus turn ends. The ambushers still get their turn in round 1.', ['R-F2', 'R-F4']);
  }
  if (ctx.phase === 'fast') {
    return say({ ...ctx, phase: 'slow', current: null, passStreak: 0 }, 'round', 'Every faction passed in a row: the fast phase ends. Slow phase: everyone who has not acted may take a turn.', ['R-F4']);
  }
  const lostText = lost.length ? ` ${lost.join(', ')} did not act and lose${lost.length === 1 ? 's' : ''} the turn.` : '';
  return say({ ...ctx, current: null, passStreak: 0 }, 'round', `Every faction passed in a row: round ${ctx.round} ends.${lostText}`, ['R-F4']);
}

// ---- the end of the fight (R-F10) ----

export const factionsStillIn = (ctx: FactionsContext) => ctx.cycle.filter((key) => ctx.roster.some((id) => ctx.combatants[id]!.faction === key && standing(ctx.combatants[id]!)));
export const fightOver = (ctx: FactionsContext) => factionsStillIn(ctx).length <= 1;

export function autoEnd(ctx: FactionsContext): FactionsContext {
  const left = factionsStillIn(ctx);
  const outcome = left.length === 1 ? `${agrees(factionLabel(ctx, left[0]), 'is', 'are')} the only faction still in the fight.` : 'No faction is still in the fight.';
  return say({ ...ctx, outcome, activeId: null, pending: null, morale: null }, 'end', `The fight is over: ${outcome}`, ['R-F10']);
}

// ---- removal and late arrivals (running) ----

export function removeCombatant(ctx: FactionsContext, id: string, reason: string): FactionsContext {
  let next = update(ctx, id, { removed: { reason, round: ctx.round } });
  next = releaseGrabs(next, id);
  const wasActive = ctx.activeId === id;
  next = say(next, 'removal', `${nameOf(ctx, id)} leaves the fight${reason ? ` (${reason})` : ''}.`, [], id);
  return wasActive ? endTurn(next) : next;
}

export function checkLateCombatant(ctx: FactionsContext, seed: CombatantSeed): string | null {
  const problem = roster.checkAdd(ROSTER, ctx, [seed]);
  if (problem) return problem;
  if (!ctx.cycle.includes(seed.side)) return `${agrees(factionLabel(ctx, seed.side), 'is', 'are')} not in this fight's faction cycle.`;
  return null;
}

/** A late arrival joins its faction's group (counted in its original number) and may act this round. */
export function addLateCombatant(ctx: FactionsContext, seed: CombatantSeed): FactionsContext {
  let next: FactionsContext = { ...ctx, combatants: { ...ctx.combatants, [seed.id]: combatantFromSeed(seed, seed.side, ctx.options) }, roster: [...ctx.roster, seed.id] };
  const groupId = defaultGroupId(seed.side);
  if (!next.groups[groupId]) next = { ...next, groups: { ...next.groups, [groupId]: { id: groupId, label: factionLabel(ctx, seed.side), faction: seed.side, members: [], originalCount: 0, checked: false } } };
  next = joinGroup(next, seed.id, groupId, true);
  return say(next, 'order', `${seed.name} arrives late and joins ${factionLabel(ctx, seed.side)}; they may act when their faction sends them.`, [], seed.id);
}


// ---- blocking decisions (RULES.md §6.8) ----

/** The question that must be answered before anything else happens (only OVERRIDE gets past it), or null. */
export function blockingReason(ctx: FactionsContext): string | null {
  if (ctx.pending?.stage === 'stunt') return `${nameOf(ctx, ctx.pending.targets[0]!.id)} must accept or decline the stunt first.`;
  if (ctx.pending?.stage === 'reaction') return `${nameOf(ctx, ctx.pending.targets[ctx.pending.cursor]!.id)} must choose a reaction (or none) first.`;
  if (ctx.pending?.stage === 'resolve') return 'Roll the damage of the attack under way first.';
  if (ctx.morale?.checks.length) return `Roll the morale check for ${ctx.morale.checks[0]!.label} first.`;
  if (ctx.morale?.failures.length) return `${nameOf(ctx, ctx.morale.failures[0])} failed morale: choose surrender or retreat first.`;
  if (ctx.durability?.length) return `Give the durability result for ${nameOf(ctx, ctx.durability[0]!.combatantId)}'s ${ctx.durability[0]!.item} first.`;
  return null;
}
