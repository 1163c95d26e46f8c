// Thrum's blocking questions: initiative, a tie, a defence, the contest, a Panic or Incapacity Roll, a triggered
// effect, a second buff.
import type { EncounterPrompt, EncounterSnapshot } from '../../encounter/types.ts';
import { nameOf, names, plural } from '../../encounter/roster.ts';
import * as rules from './rules.ts';
import type { Frame, ThrumContext } from './rules.ts';
import { signed, possessive, ROLL_REASON } from './log.ts';
import { contextOf } from './stages.ts';
import { contestDice, contestRolled, defenceChoices, defenceLabel, defenceModifier, diceLabel, rollCounts, tiersFor, type RollCounts } from './attack.ts';
import { stackEntry } from './combat.ts';
import { rulingsOf } from './options.ts';

/**
 * What the contest prompt (kind 'defenceResult') carries beside its text: each side's modifier, Boons and Banes (the
 * Banes and the defence's Boons by reason) and, when the app rolls the contest (R-H11), how many d6 each side rolls.
 * The demo sizes its typed dice from these; the tests read the reasons.
 */
export type ThrumContestDetails = RollCounts & { attackDice?: number; defenceDice?: number };

/** The contest prompt's details as `framePrompt` wrote them; null for any other prompt (or none). */
export function contestDetailsOf(prompt: EncounterPrompt | null | undefined): ThrumContestDetails | null {
  if (prompt?.kind !== 'defenceResult') return null;
  const details: unknown = prompt.details;
  return details as ThrumContestDetails;
}

function framePrompt(ctx: ThrumContext, frame: Frame): EncounterPrompt {
  switch (frame.kind) {
    case 'attack': {
      const attack = frame.attack;
      const target = attack.targets[attack.current]!;
      const defender = ctx.combatants[target.targetId]!;
      const attacker = nameOf(ctx, attack.attackerId);
      if (target.defence === null) {
        const choices = defenceChoices(attack.attackType).map((d) => {
          const boon = d === 'evasion' && rules.stacksOf(defender, 'Vulnerable') === 0 ? ', +1 Boon' : '';
          return { id: d, answer: { defence: d }, label: d === 'alternative' ? 'An ability\'s defence' : `${defenceLabel(d)} ${signed(defenceModifier(defender, d))}${boon}` };
        });
        return {
          kind: 'defenceChoice', answer: 'DEFENSE_CHOICE', subjectId: defender.id, choices,
          text: `${attacker} attacks ${defender.name} with ${attack.ability} (${attack.attackType}). ${defender.name} chooses a defence before the roll.`,
        };
      }
      const counts = rollCounts(ctx, attack, target);
      const tierLabel: Record<string, string> = {
        critical: 'Critical: avoids the effect',
        success: target.defence === 'evasion' ? 'Success: avoids it, +1 Vulnerable' : 'Success: avoids the effect',
        failure: target.defence === 'evasion' ? 'Failure: takes it, +1 Vulnerable' : 'Failure: takes the effect',
      };
      if (contestRolled(ctx, target.defence)) {
        // R-H11: the app rolls both sides (or the GM types physical dice in the Contested roll form).
        const dice = contestDice(ctx, attack, target);
        const boonsBanes = (boons: number, banes: number) => [boons ? plural(boons, 'Boon') : null, banes ? plural(banes, 'Bane') : null].filter(Boolean).join(', ');
        const attackCounts = boonsBanes(counts.attackBoons, counts.attackBanes.length);
        const defenceCounts = boonsBanes(counts.defenceBoons.length, counts.defenceBanes.length);
        return {
          kind: 'defenceResult', answer: 'DEFENSE_RESULT', subjectId: defender.id,
          text: `Contested roll: ${possessive(attacker)} ${attack.ability}, ${diceLabel(dice.attack)}${attackCounts ? ` (${attackCounts})` : ''}, against ${possessive(defender.name)} ${defenceLabel(target.defence)}, ${diceLabel(dice.defence)}${defenceCounts ? ` (${defenceCounts})` : ''}. ${rulingsOf(ctx.options).contestTies === 'attackWins' ? 'A tie goes to the attack (R-H11 ties).' : 'The attack must exceed the defence (R-H11 ties).'}`,
          choices: [{ id: 'roll', answer: { outcome: 'roll' }, label: `Roll ${diceLabel(dice.attack)} against ${diceLabel(dice.defence)}` }],
          details: { ...counts, attackDice: dice.attack.count, defenceDice: dice.defence.count } satisfies ThrumContestDetails,
        };
      }
      return {
        kind: 'defenceResult', answer: 'DEFENSE_RESULT', subjectId: defender.id,
        text: `Roll ${possessive(attacker)} ${attack.ability}: Art ${signed(counts.attackModifier)}, ${plural(counts.attackBanes.length, 'Bane')}${counts.attackBoons ? `, ${plural(counts.attackBoons, 'Boon')}` : ''} — against ${possessive(defender.name)} ${defenceLabel(target.defence)} ${signed(counts.defenceModifier)}, ${plural(counts.defenceBoons.length, 'Boon')}, ${plural(counts.defenceBanes.length, 'Bane')}. The defender's outcome?`,
        choices: tiersFor(target.defence).map((t) => ({ id: t, answer: { outcome: t }, label: tierLabel[t]! })),
        details: { ...counts } satisfies ThrumContestDetails,
      };
    }
    case 'roll': {
      const c = ctx.combatants[frame.id]!;
      const panic = frame.roll === 'panic';
      return {
        kind: panic ? 'panicRoll' : 'incapacityRoll', answer: panic ? 'PANIC_ROLL' : 'INCAPACITY_ROLL', subjectId: c.id,
        text: panic
          ? `${c.name} is Frayed (Stress ${c.stressLoad} over Tolerance ${c.stressTolerance}): Panic Roll, 2d6 ${signed(c.resolve)} must exceed ${c.stressLoad}.`
          : `${c.name} is Exhausted (Fatigue ${c.fatigueLoad} over Tolerance ${c.fatigueTolerance}): Incapacity Roll (${ROLL_REASON[frame.reason]}), 2d6 ${signed(c.resilience)} must exceed ${c.fatigueLoad}.`,
        choices: [{ id: c.id, answer: { combatantId: c.id }, label: `Roll 2d6 ${signed(panic ? c.resolve : c.resilience)}` }],
      };
    }
    case 'trigger': {
      // The whole stack, top first: what resolves now, then what waits under it (last in, first out, §5.2 rule 6).
      const stack = [...ctx.stack].reverse().map((f) => stackEntry(ctx, f));
      const waiting = stack.slice(1);
      return {
        kind: 'trigger', answer: 'RESOLVE_TRIGGER', subjectId: frame.ownerId,
        text: `Trigger (${frame.trigger}): resolve ${possessive(nameOf(ctx, frame.ownerId))} ${frame.effect}, then confirm.${waiting.length ? ` Then, last in first out: ${waiting.map((w, i) => `${i + 2}. ${w}`).join('; ')}.` : ''}`,
        choices: [{ id: frame.ownerId, answer: { ownerId: frame.ownerId }, label: `${nameOf(ctx, frame.ownerId)}: resolved` }],
      };
    }
    case 'buff': {
      const target = ctx.combatants[frame.targetId]!;
      return {
        kind: 'buffChoice', answer: 'BUFF_CHOICE', subjectId: target.id,
        text: `${target.name} already benefits from ${target.buff?.name ?? 'a buff'}; one buff per target. Keep it, or take ${frame.name} from ${nameOf(ctx, frame.fromId)}?`,
        choices: [{ id: 'keepOld', answer: { decision: 'keepOld' }, label: `Keep ${target.buff?.name ?? 'the old buff'}` }, { id: 'takeNew', answer: { decision: 'takeNew' }, label: `Take ${frame.name}` }],
      };
    }
  }
}

export function prompt(snapshot: EncounterSnapshot): EncounterPrompt | null {
  const ctx = contextOf(snapshot);
  if (snapshot.matches('initiative')) {
    const waiting = rules.unrolled(ctx);
    if (waiting.length) {
      return {
        kind: 'initiative', answer: 'ROLL_INITIATIVE', text: 'Every combatant rolls initiative: 2d6 + Initiative modifier.',
        choices: waiting.map((id) => ({ id, answer: { combatantId: id }, label: `${nameOf(ctx, id)} (2d6 ${signed(ctx.combatants[id]!.initiativeModifier)})` })),
      };
    }
    const tie = rules.openTie(ctx);
    if (tie) {
      return {
        kind: 'initiativeTie', answer: 'BREAK_TIE', text: `Initiative tie the rules cannot break (R-H1): who goes first? ${names(ctx, tie)} (${ctx.combatants[tie[0]!]!.initiative!.total}).`,
        choices: tie.map((id) => ({ id, answer: { combatantId: id }, label: nameOf(ctx, id) })),
      };
    }
  }
  const top = ctx.stack.at(-1);
  return top ? framePrompt(ctx, top) : null;
}
