// Morale in Factions (§3.2 rule 7, R-F7, R-F8, R-F8b): who checks in the morale phase, the group WIT save, and
// what those who fail choose.
import { nameOf, update } from '../../encounter/roster.ts';
import { d20Problem, faces } from './attack-spec.ts';
import type { FactionsCombatant, FactionsContext, Roll } from './rules.ts';
import { releaseGrabs, say, standing, updateEach } from './rules.ts';
import { groupSave } from './recovery.ts';
import { rulingsOf } from './options.ts';

/** Who is subject to morale: in the fight, not immune to fear, not already immune this stretch, PCs too unless R-F7 says NPCs only. */
const subjectToMorale = (ctx: FactionsContext, c: FactionsCombatant) =>
  standing(c) && !c.fearImmune && !c.moraleImmune && (rulingsOf(ctx.options).pcMorale || !c.pc);

/** The morale phase: which groups and lone fighters check now (marked so that each checks once). */
export function openMorale(ctx: FactionsContext): FactionsContext {
  let next = ctx;
  const checks: { label: string; groupId: string | null; rollers: string[]; rulings: string[] }[] = [];
  const lastStanding = rulingsOf(ctx.options).loneFighter === 'lastStanding';
  for (const group of Object.values(ctx.groups)) {
    const members = group.members.filter((id) => next.combatants[id]);
    const inFight = members.filter((id) => standing(next.combatants[id]!));
    if (group.originalCount > 1 && !group.checked && inFight.length * 2 <= group.originalCount) {
      next = { ...next, groups: { ...next.groups, [group.id]: { ...group, checked: true } } };
      const rollers = inFight.filter((id) => subjectToMorale(next, next.combatants[id]!));
      checks.push({ label: `${group.label} (${inFight.length} of ${group.originalCount} left)`, groupId: group.id, rollers, rulings: ['R-F7', 'R-F8'] });
      continue;
    }
    // R-F8b: alone = a group that began with one member (or, as the option has it, the last one standing).
    const alone = group.originalCount === 1 ? inFight : lastStanding && group.originalCount > 1 && inFight.length === 1 ? inFight : [];
    for (const id of alone) {
      const c = next.combatants[id]!;
      if (c.loneChecked || !c.damagedHere || c.health * 2 > c.healthMax) continue;
      next = update(next, id, { loneChecked: true });
      checks.push({ label: `${c.name}, fighting alone at ${c.health}/${c.healthMax} health`, groupId: null, rollers: subjectToMorale(next, c) ? [id] : [], rulings: ['R-F7', 'R-F8', 'R-F8b'] });
    }
  }
  for (const check of checks.filter((c) => c.rollers.length === 0)) {
    next = say(next, 'decision', `Morale: ${check.label} must check, but nobody there is subject to morale (immune to fear, immune this stretch${rulingsOf(ctx.options).pcMorale ? '' : ', or a PC'}).`, check.rulings);
  }
  const due = checks.filter((c) => c.rollers.length > 0);
  next = { ...next, morale: { checks: due, failures: [] } };
  return due.length
    ? say(next, 'round', `Morale phase: ${due.map((c) => c.label).join('; ')} must make a group WIT save.`, [...new Set(due.flatMap((c) => c.rulings))])
    : say(next, 'round', 'Morale phase: nobody has to check.', ['R-F8']);
}

export function moraleRollProblem(ctx: FactionsContext, roll: Roll | null | undefined): string | null {
  if (!ctx.morale?.checks.length) return 'No morale check is waiting.';
  return d20Problem(roll, 'The group WIT save');
}

export function moraleRoll(ctx: FactionsContext, roll: Roll): FactionsContext {
  const [check, ...rest] = ctx.morale!.checks;
  const face = roll.faces[0]!;
  const results = groupSave(face, check!.rollers.map((id) => ({ id, score: ctx.combatants[id]!.wit })));
  let next = updateEach(ctx, results.map((r) => [r.id, r.passed ? { moraleImmune: true } : { moraleFailed: true }] as const));
  const failures = results.filter((r) => !r.passed).map((r) => r.id);
  const text = results.map((r) => `${nameOf(ctx, r.id)} (WIT ${r.score}) ${r.passed ? 'holds, immune until the stretch ends' : 'fails'}`).join(', ');
  next = { ...next, morale: { checks: rest, failures: [...ctx.morale!.failures, ...failures] } };
  return say(next, 'decision', `Morale, ${check!.label}: group WIT save d20 ${faces(roll)}: ${text}.${failures.length ? ' Those who fail must surrender or retreat.' : ''}`, check!.rulings);
}

export function moraleOutcome(ctx: FactionsContext, choice: 'surrender' | 'retreat'): FactionsContext {
  const [id, ...rest] = ctx.morale!.failures;
  const c = ctx.combatants[id!]!;
  let next = releaseGrabs(update(ctx, c.id, choice === 'surrender' ? { surrendered: true } : { retreated: true }), c.id);
  next = { ...next, morale: { ...ctx.morale!, failures: rest } };
  return say(next, 'decision', choice === 'surrender' ? `${c.name} surrenders after failing morale.` : `${c.name} retreats from the fight after failing morale.`, ['R-F8', 'R-F9'], c.id);
}
