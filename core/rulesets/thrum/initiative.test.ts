// R-H1: initiative ties the rules cannot break, checked against the ruling read literally over many rolls and each
// tie-break mode, as combatants roll, leave, and the GM puts them first one by one.
import { describe, expect, it } from 'vitest';
import { addSeeds } from '../../encounter/roster.ts';
import { defaultOptions } from '../options.ts';
import { rulingsOf, thrumOptions } from './options.ts';
import * as rules from './rules.ts';
import type { ThrumContext } from './rules.ts';
import { seed } from './testing.ts';

/** A small seeded generator (mulberry32), so a failure replays the same rolls. */
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

const MODES = ['modifierThenPcs', 'modifierThenGm', 'gmChooses'] as const;

/** Two combatants are tied when the total is the same and, as far as the mode looks, the modifier and PC-ness too. */
function tiedByRule(mode: string, a: rules.ThrumCombatant, b: rules.ThrumCombatant): boolean {
  if (a.initiative!.total !== b.initiative!.total) return false;
  if (mode !== 'gmChooses' && a.initiativeModifier !== b.initiativeModifier) return false;
  return mode !== 'modifierThenPcs' || a.pc === b.pc;
}

/** The tied groups by the letter of R-H1: roster order, everyone rolled and still in the fight, two or more. */
function groupsByRule(ctx: ThrumContext): string[][] {
  const mode = rulingsOf(ctx.options).initiativeTies;
  const rolled = ctx.roster.map((id) => ctx.combatants[id]!).filter((c) => c.removed === null && c.initiative !== null);
  return rolled
    .filter((c, i) => !rolled.slice(0, i).some((earlier) => tiedByRule(mode, earlier, c)))
    .map((first) => rolled.filter((c) => tiedByRule(mode, first, c)).map((c) => c.id))
    .filter((group) => group.length > 1);
}

function openTieByRule(ctx: ThrumContext): string[] | null {
  for (const group of groupsByRule(ctx)) {
    const left = group.filter((id) => !ctx.tieOrder.includes(id));
    if (left.length > 1) return left;
  }
  return null;
}

function initiativeRoll(mode: string, count: number): ThrumContext {
  const seeds = Array.from({ length: count }, (_, i) => seed(`c${i}`, i % 2 === 0 ? 'party' : 'foes', { initiativeModifier: i % 3 }));
  return addSeeds(rules.ROSTER, rules.initialContext({ options: { ...defaultOptions(thrumOptions), initiativeTies: mode }, carried: {} }), seeds);
}

describe('initiative ties (R-H1)', () => {
  for (const mode of MODES) {
    it(`${mode}: the tied groups and the open tie are those of the ruling, roll by roll, removal by removal, pick by pick`, () => {
      const random = seeded(MODES.indexOf(mode) + 3);
      let ctx = initiativeRoll(mode, 40);
      const check = (when: string) => {
        expect(rules.tiedGroups(ctx), when).toEqual(groupsByRule(ctx));
        expect(rules.openTie(ctx), when).toEqual(openTieByRule(ctx));
        expect(rules.initiativeSettled(ctx), when).toBe(ctx.roster.every((id) => ctx.combatants[id]!.initiative !== null || ctx.combatants[id]!.removed !== null) && openTieByRule(ctx) === null);
      };
      for (const id of ctx.roster) {
        const faces = [1 + Math.floor(random() * 3), 1 + Math.floor(random() * 3)];
        ctx = rules.rollInitiative(ctx, id, { faces, source: 'app' });
        check(`after ${id} rolls`);
        if (random() < 0.1) {
          ctx = rules.removeCombatant(ctx, ctx.roster[Math.floor(random() * ctx.roster.length)]!, 'test');
          check('after a removal');
        }
      }
      for (let pick = 0; pick < 60; pick += 1) {
        const tie = rules.openTie(ctx);
        if (!tie) break;
        ctx = { ...ctx, tieOrder: [...ctx.tieOrder, tie[Math.floor(random() * tie.length)]!] };
        check(`after pick ${pick}`);
      }
      expect(rules.openTie(ctx)).toBeNull();
    });
  }

  it('the lists handed out are the caller\'s own: changing one changes nothing in the fight', () => {
    let ctx = initiativeRoll('gmChooses', 4);
    for (const id of ctx.roster) ctx = rules.rollInitiative(ctx, id, { faces: [3, 3], source: 'app' });
    rules.tiedGroups(ctx)[0]!.push('intruder');
    rules.openTie(ctx)!.splice(0);
    // Totals 6, 7, 8, 6 (modifiers 0, 1, 2, 0).
    expect(rules.tiedGroups(ctx)).toEqual([['c0', 'c3']]);
    expect(rules.openTie(ctx)).toEqual(['c0', 'c3']);
  });
});
