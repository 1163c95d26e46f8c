// The rolls an event needs: the app rolls them, or the GM types the faces.
import type { EncounterSnapshot, GmEvent, RollRequest } from '../../encounter/types.ts';
import * as combat from './combat.ts';
import type { TestSpec } from './combat.ts';
import { contextOf, type TeamsEvent } from './machine.ts';
import * as rules from './rules.ts';
import type { TeamsCombatant } from './rules.ts';

const testRequest = (path: string[], who: string, spec: TestSpec): RollRequest => ({
  path,
  label: `${who}: ${spec.label} (${combat.describeDice(spec)}${combat.setsOf(spec) > 1 ? `, ${combat.setsOf(spec)} sets${combat.levelNote(spec.level)}` : ''})`,
  notation: combat.testNotation(spec),
  count: combat.diceCountOf(spec),
  sides: Math.max(...spec.dice),
});
const luckRequest = (path: string[], c: TeamsCombatant, what = 'luck die'): RollRequest => ({ path, label: `${c.name}: ${what}`, notation: `1d${c.luckDie}`, count: 1, sides: c.luckDie });

export function rollsFor(snapshot: EncounterSnapshot, raw: GmEvent): RollRequest[] {
  const ctx = contextOf(snapshot);
  const event = raw as GmEvent & TeamsEvent;
  const get = (id: string | null | undefined) => (id ? ctx.combatants[id] : undefined);
  const active = get(ctx.activeId);
  const strikeRolls = (striker: TeamsCombatant, d: { attribute: rules.Attribute; proficiency: rules.Proficiency }) => [
    testRequest(['testRoll'], striker.name, combat.killingStrikeSpec(ctx, striker, d.attribute, d.proficiency)),
    luckRequest(['luckRoll'], striker),
    ...(combat.sneakNeedsOwnRoll(ctx) ? [testRequest(['sneakRoll'], striker.name, combat.sneakSpec(striker, d.attribute, d.proficiency))] : []),
  ];
  try {
    switch (event.type) {
      case 'ATTACK': {
        const attacker = get(event.attackerId);
        if (!attacker || !get(event.targetId)) return [];
        const plan = combat.planAttack(ctx, event);
        const pool = combat.strayPool(ctx, event);
        const stray = plan.ranged && pool.length > 1 ? [{ path: ['strayRoll'], label: `Stray shot: which of ${pool.length} nearby characters (used on a luck roll of 1)`, notation: `1d${pool.length}`, count: 1, sides: pool.length }] : [];
        return [testRequest(['testRoll'], attacker.name, plan.spec), luckRequest(['luckRoll'], attacker), ...stray];
      }
      case 'ACTION': {
        if (event.kind !== 'resuscitate' && event.kind !== 'shortTask') return [];
        const actor = get(event.actorId ?? ctx.activeId);
        const spec = combat.gmTestSpec(combat.ACTION_LABELS[event.kind], event);
        if (!actor || !spec || !combat.completesNow(ctx, combat.costOfAction(event))) return [];
        return [testRequest(['testRoll'], actor.name, spec), luckRequest(['luckRoll'], actor)];
      }
      case 'KILLING_STRIKE':
        if (!active || !combat.completesNow(ctx, combat.KILLING_STRIKE_COST)) return [];
        return strikeRolls(active, event);
      case 'EXTENDED': {
        if (event.decision !== 'continue' || !active?.inProgress || !combat.continuationCompletes(ctx)) return [];
        const x = active.inProgress;
        if (x.kind === 'killingStrike') return strikeRolls(active, x.detail as { attribute: rules.Attribute; proficiency: rules.Proficiency });
        const spec = combat.extendedSpec(x);
        return (x.kind === 'resuscitate' || x.kind === 'shortTask') && spec ? [testRequest(['testRoll'], active.name, spec), luckRequest(['luckRoll'], active)] : [];
      }
      case 'DEFEND': {
        const head = ctx.pending[0];
        if (event.defence !== 'dodge' || head?.kind !== 'defence') return [];
        const target = get(head.attack.targetId)!;
        return [testRequest(['testRoll'], target.name, combat.reactionSpec(target, 'dodge')!), luckRequest(['luckRoll'], target)];
      }
      case 'REACTION_TEST': {
        const c = get(event.reactorId);
        const spec = c ? combat.reactionSpec(c, event.reaction, event) : null;
        return c && spec ? [testRequest(['testRoll'], c.name, spec), luckRequest(['luckRoll'], c)] : [];
      }
      case 'CONSCIOUSNESS': {
        const head = ctx.pending[0];
        if (event.decision !== 'fortify' || head?.kind !== 'consciousness') return [];
        const c = get(head.id)!;
        return [testRequest(['testRoll'], c.name, combat.reactionSpec(c, 'fortify')!), luckRequest(['luckRoll'], c)];
      }
      case 'LUCK_TEST': {
        const head = ctx.pending[0];
        if (head?.kind !== 'death') return [];
        const c = get(head.id)!;
        return [luckRequest(['luckRoll'], c, `luck test against death (${c.cheatDeathDifficulty}+)`)];
      }
      default:
        return [];
    }
  } catch {
    return [];
  }
}
