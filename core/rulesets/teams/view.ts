// The runner's view of a Teams fight: the order, each combatant's row, the prompt and what may be sent now.
import type { CombatantView, EncounterSnapshot, EncounterView } from '../../encounter/types.ts';
import * as combat from './combat.ts';
import { contextOf } from './machine.ts';
import { holdingText } from './log.ts';
import { prompt } from './prompts.ts';
import * as rules from './rules.ts';
import type { TeamsCombatant, TeamsContext } from './rules.ts';

function combatantTags(ctx: TeamsContext, c: TeamsCombatant): string[] {
  const tags: string[] = [];
  if (c.dead) tags.push('dead');
  else if (!c.conscious) tags.push('unconscious');
  if (combat.isHarmed(c)) tags.push('harmed');
  if (combat.isBloodied(c)) tags.push('bloodied');
  if (c.prone) tags.push('prone');
  if (c.guarding) tags.push('guarding');
  if (c.inCover) tags.push('in cover');
  if (c.waitExtra) tags.push('waiting: +1 reaction');
  if (c.readied) tags.push(`readied: ${c.readied.action} (when ${c.readied.trigger})`);
  if (rules.isSurprised(ctx, c)) tags.push('surprised');
  if (c.unsurprisable) tags.push('cannot be surprised');
  if (c.inProgress) tags.push(`${c.inProgress.name} ${c.inProgress.paid}/${c.inProgress.cost}`);
  // What the turn has used up: the active one's Move or Step, an ally's Move on a Command, a Command's action to take.
  if (ctx.turn && ((ctx.activeId === c.id && ctx.turn.moved) || ctx.turn.alliesMoved.includes(c.id))) tags.push('moved');
  if (ctx.turn && ctx.activeId === c.id && ctx.turn.stepped) tags.push('stepped');
  if (ctx.turn?.commandTokens.includes(c.id)) tags.push('commanded: 1 action');
  if (c.nonlethalZeroed && c.health === 0) tags.push('nonlethal grace');
  if (ctx.instigator?.combatantId === c.id) tags.push('instigator');
  for (const item of [c.items.weapon, c.items.shield]) if (item && item.durability === 0) tags.push(`${item.name} broken`);
  if (ctx.started && !c.dead && c.removed === null) tags.push(combat.reactionAvailable(ctx, c) ? (combat.reactionAvailable(ctx, c) === 'extra' ? 'extra reaction' : 'reaction ready') : 'reaction spent');
  return tags;
}

function combatantView(ctx: TeamsContext, id: string, status: CombatantView['status'], slot: number | null): CombatantView {
  const c = ctx.combatants[id]!;
  return {
    id,
    name: c.name,
    side: c.team,
    sideLabel: rules.teamLabel(ctx, c.team),
    status,
    slot,
    health: { label: 'Health', current: c.health, max: c.healthMax },
    tags: combatantTags(ctx, c),
    ...(c.removed ? { removedReason: c.removed.reason || 'left the fight' } : c.dead ? { removedReason: `dead${c.deathCause ? ` (${c.deathCause})` : ''}` } : {}),
    ...(c.dead ? { dead: true } : {}),
    stats: [
      { label: 'Endurance', value: `${c.endurance}/${c.enduranceMax}` },
      { label: 'Stamina', value: `${c.stamina}/${c.staminaMax}` },
      { label: 'Focus', value: `${c.focus}/${c.focusMax}` },
      { label: 'Cheat death', value: `DC ${c.cheatDeathDifficulty}` },
      { label: 'Holding', value: holdingText(c) },
      ...(c.inProgress ? [{ label: c.inProgress.name, value: `${c.inProgress.paid}/${c.inProgress.cost} actions` }] : []),
    ],
  };
}

function allowedEvents(snapshot: EncounterSnapshot, ctx: TeamsContext): string[] {
  if (snapshot.matches('setup')) return ['ADD_COMBATANTS', 'REMOVE_COMBATANT', 'ADD_TEAM', 'SET_TEAM', 'SET_INSTIGATOR', 'SET_TEAM_ORDER', 'DECLARE_SURPRISE', 'SET_UNSURPRISABLE', 'SET_OBJECTIVE', 'START'];
  if (snapshot.matches('ended')) return [];
  const head = ctx.pending[0];
  if (head) return [{ defence: 'DEFEND', consciousness: 'CONSCIOUSNESS', death: 'LUCK_TEST' }[head.kind], 'OVERRIDE'];
  const anytime = ['REMOVE_COMBATANT', 'ADD_LATE_COMBATANT', 'END_COMBAT', 'APPLY_DAMAGE', 'HEAL', 'OVERRIDE', 'SET_OBJECTIVE', 'REACTION_TEST'];
  if (Object.values(ctx.combatants).some((c) => c.readied)) anytime.push('FIRE_READIED', 'ATTACK');
  if (snapshot.matches({ running: 'teamPick' })) return ['SELECT_MEMBER', ...anytime];
  if (snapshot.matches({ running: 'extendedChoice' })) return ['EXTENDED', ...anytime];
  if (snapshot.matches({ running: 'turn' }) && ctx.turn) {
    if (ctx.turn.openingAttack) return ['ATTACK', 'OPENING_ATTACK', 'FREE_ACTION', ...anytime];
    const turn = ['END_TURN', 'FREE_ACTION'];
    if (ctx.turn.actionsLeft > 0) turn.push('ATTACK', 'ACTION', 'KILLING_STRIKE');
    else if (ctx.turn.commandTokens.length) turn.push('ATTACK', 'ACTION');
    if (ctx.combatants[ctx.activeId!]?.inProgress) turn.push('EXTENDED');
    return [...new Set([...turn, ...anytime])];
  }
  return anytime;
}

/** Acted in this round's order, then the active one, then who is still to act by team, then the fallen. */
export function view(snapshot: EncounterSnapshot): EncounterView {
  const ctx = contextOf(snapshot);
  const phase = snapshot.matches('setup') ? 'setup' : snapshot.matches('ended') ? 'ended' : 'running';
  const out = (id: string) => ctx.combatants[id]!.removed !== null || ctx.combatants[id]!.dead;
  let order: CombatantView[];
  if (phase === 'setup') {
    order = ctx.teamOrder.flatMap((t) => rules.membersOf(ctx, t).map((id) => combatantView(ctx, id, 'waiting', null)));
  } else {
    const acted = ctx.roundTurns.filter((id) => !out(id)).map((id) => combatantView(ctx, id, 'acted', ctx.roundTurns.indexOf(id) + 1));
    const active = ctx.activeId && !out(ctx.activeId) ? [combatantView(ctx, ctx.activeId, 'active', ctx.roundTurns.length + 1)] : [];
    const shown = new Set([...ctx.roundTurns, ...(ctx.activeId ? [ctx.activeId] : [])]);
    const rest = ctx.teamOrder.flatMap((t) => rules.membersOf(ctx, t).filter((id) => !shown.has(id) && !out(id)).map((id) => combatantView(ctx, id, ctx.combatants[id]!.acted ? 'acted' : 'waiting', null)));
    const fallen = ctx.roster.filter(out).map((id) => combatantView(ctx, id, 'removed', null));
    order = [...acted, ...active, ...rest, ...fallen];
  }
  const team = rules.currentTeam(ctx);
  const counters: EncounterView['counters'] = phase === 'running'
    ? [
        { key: 'teamCycle', label: 'Team cycle', value: ctx.teamOrder.map((t) => (t === (ctx.activeId ? ctx.combatants[ctx.activeId]!.team : team) ? `[${rules.teamLabel(ctx, t)}]` : rules.teamLabel(ctx, t))).join(' → ') },
        ...(ctx.surpriseRound ? [{ key: 'surprise', label: 'Surprise round', value: rules.teamLabel(ctx, ctx.surpriseTeam) }] : []),
        { key: 'teamsStanding', label: 'Teams standing', value: rules.teamsStanding(ctx).length },
      ]
    : [];
  const activeId = snapshot.matches({ running: 'turn' }) || snapshot.matches({ running: 'extendedChoice' }) || (ctx.activeId && snapshot.matches({ running: 'interrupts' })) ? ctx.activeId : null;
  return {
    phase,
    round: ctx.round,
    counters,
    order,
    activeId,
    turn: activeId && ctx.turn ? { actionsLeft: ctx.turn.actionsLeft, actionsPerTurn: rules.ACTIONS_PER_TURN } : null,
    prompt: phase === 'running' ? prompt(snapshot, ctx) : null,
    allowed: allowedEvents(snapshot, ctx),
    setup: {
      partyOrder: rules.membersOf(ctx, ctx.teamOrder[0] ?? 'party'),
      gmOrder: null,
      firstSide: ctx.teamOrder[0] ?? 'party',
      sides: ctx.teamOrder.map((t) => ({ key: t, label: rules.teamLabel(ctx, t) })),
    },
    ...(phase === 'running' && asides(ctx).length ? { aside: asides(ctx) } : {}),
    ...(ctx.outcome !== null ? { outcome: ctx.outcome } : {}),
  };
}

/** Notes beside the fight: the end of combat when one team is left (R-T11, no prompt: the GM decides), and objectives. */
function asides(ctx: TeamsContext): { title: string; text: string }[] {
  const notes: { title: string; text: string }[] = [];
  const standing = rules.teamsStanding(ctx);
  if (standing.length <= 1) notes.push({ title: 'End of combat (R-T11)', text: standing.length === 1 ? `Only ${rules.teamLabel(ctx, standing[0])} is left standing: end combat?` : 'No team is left standing: end combat?' });
  const objectives = ctx.teamOrder.filter((t) => ctx.objectives[t]?.trim()).map((t) => `${rules.teamLabel(ctx, t)}: ${ctx.objectives[t]!.trim()}`);
  if (objectives.length) notes.push({ title: 'Objectives (R-T11)', text: objectives.join('\n') });
  return notes;
}
