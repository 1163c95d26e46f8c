// What blocks play and waits for the GM's answer: a defence, a consciousness check, a death risk.
import type { EncounterPrompt, EncounterSnapshot } from '../../encounter/types.ts';
import * as combat from './combat.ts';
import * as rules from './rules.ts';
import { nameOf } from '../../encounter/roster.ts';
import type { TeamsContext } from './rules.ts';
import { counted } from '../../words.ts';

export function prompt(snapshot: EncounterSnapshot, ctx: TeamsContext): EncounterPrompt | null {
  const head = ctx.pending[0];
  if (head?.kind === 'defence') {
    const pa = head.attack;
    const target = ctx.combatants[pa.targetId]!;
    return {
      kind: 'defence', answer: 'DEFEND', subjectId: target.id,
      text: `${nameOf(ctx, pa.attackerId)} ${pa.crit ? 'critically hits' : 'hits'} ${target.name} (attack ${pa.total}, ${pa.weapon.damageType}). Defend?`,
      choices: [{ id: 'none', label: 'Take the hit', answer: { defence: 'none' } }, ...combat.defenceChoices(ctx, pa)],
    };
  }
  if (head?.kind === 'consciousness') {
    const c = ctx.combatants[head.id]!;
    return {
      kind: 'consciousness', answer: 'CONSCIOUSNESS', subjectId: c.id,
      text: `${c.name} is missing ${head.missing} health (constitution ${c.constitution}): Fortify against ${head.missing} (1 stamina, the reaction) or fall unconscious?`,
      choices: [
        { id: 'fortify', label: `Fortify (${combat.describeDice(combat.reactionSpec(c, 'fortify')!)})`, answer: { decision: 'fortify' } },
        { id: 'unconscious', label: 'Fall unconscious', answer: { decision: 'unconscious' } },
      ],
    };
  }
  if (head?.kind === 'death') {
    const c = ctx.combatants[head.id]!;
    return {
      kind: 'death', answer: 'LUCK_TEST', subjectId: c.id,
      text: `${c.name} is at zero health and risks death: luck test, d${c.luckDie} against ${c.cheatDeathDifficulty}.`,
      choices: [{ id: 'roll', label: `Roll the luck die (${c.cheatDeathDifficulty}+)`, answer: {} }],
    };
  }
  if (snapshot.matches({ running: 'teamPick' })) {
    const team = rules.currentTeam(ctx)!;
    return {
      kind: 'selectMember', answer: 'SELECT_MEMBER',
      text: `${rules.teamLabel(ctx, team)}: who takes the next turn?`,
      choices: rules.eligibleMembers(ctx, team).map((id) => ({ id, label: nameOf(ctx, id), answer: { combatantId: id } })),
    };
  }
  const active = ctx.combatants[ctx.activeId ?? ''];
  if (active && ctx.turn && !ctx.turn.extendedDecided && active.inProgress) {
    const x = active.inProgress;
    return {
      kind: 'extended', answer: 'EXTENDED', subjectId: active.id,
      text: `${active.name} is in the middle of ${x.name} (${x.paid} of ${x.cost} actions): continue or abandon it?`,
      choices: [
        { id: 'continue', label: `Continue (${counted(Math.min(x.cost - x.paid, ctx.turn.actionsLeft), 'action')})`, answer: { decision: 'continue' } },
        { id: 'abandon', label: 'Abandon (free)', answer: { decision: 'abandon' } },
      ],
    };
  }
  if (active && ctx.turn?.openingAttack) {
    return {
      kind: 'openingAttack', answer: 'OPENING_ATTACK', subjectId: active.id,
      text: `${active.name} started the fight: their turn opens with that attack on ${rules.teamLabel(ctx, ctx.instigator?.attackedTeam)}.`,
      choices: [{ id: 'waive', label: 'Waive it', answer: { decision: 'waive' } }],
    };
  }
  return null;
}
