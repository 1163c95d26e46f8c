// Tests (R-T17): which dice a test rolls, its notation, its total, and the luck die.
import type { ReactionKind, TestInput } from './combat-events.ts';
import type { Roll, TeamsCombatant } from './rules.ts';

const LUCKY_FACE = 20;
const LUCKY_BONUS = 4;

export interface TestSpec {
  label: string;
  /** Die sizes of one set, e.g. [6, 6] for strength d6 + combat skill d6. */
  dice: number[];
  bonus: number;
  /** Signed advantage level: 1 + |level| sets are rolled, the best (or worst) set is kept (R-T17). */
  level: number;
}

export const setsOf = (spec: TestSpec) => 1 + Math.abs(spec.level);
export const diceCountOf = (spec: TestSpec) => spec.dice.length * setsOf(spec);

/** Dice notation the server rolls: every die in order, set after set; the bonus only when one set is rolled. */
export function testNotation(spec: TestSpec): string {
  const one = spec.dice.map((d) => `1d${d}`).join('+');
  const all = Array.from({ length: setsOf(spec) }, () => one).join('+');
  if (setsOf(spec) > 1 || spec.bonus === 0) return all;
  return `${all}${spec.bonus > 0 ? '+' : ''}${spec.bonus}`;
}

export const describeDice = (spec: TestSpec) => `${spec.dice.map((d) => `d${d}`).join(' + ')}${spec.bonus ? ` ${spec.bonus > 0 ? '+' : '−'} ${Math.abs(spec.bonus)}` : ''}`;
export const levelNote = (level: number) =>
  level === 0 ? '' : ` with ${Math.abs(level) === 1 ? '' : Math.abs(level) === 2 ? 'double ' : `${Math.abs(level)}× `}${level > 0 ? 'advantage' : 'disadvantage'}`;

export function testProblem(spec: TestSpec, roll: Roll | null | undefined, who: string): string | null {
  if (!roll) return `${who}'s ${spec.label} roll is missing.`;
  const count = diceCountOf(spec);
  if (roll.faces.length !== count) {
    const sets = setsOf(spec) > 1 ? ` (${setsOf(spec)} sets${levelNote(spec.level)})` : '';
    return `${who}'s ${spec.label} needs ${count} dice: ${spec.dice.map((d) => `d${d}`).join(' + ')}${sets}; ${roll.faces.length} given.`;
  }
  for (let i = 0; i < roll.faces.length; i += 1) {
    const size = spec.dice[i % spec.dice.length]!;
    const face = roll.faces[i]!;
    if (!Number.isInteger(face) || face < 1 || face > size) return `${face} is not a face of ${who}'s d${size}.`;
  }
  return null;
}

export interface TestResult {
  sets: number[][];
  setTotals: number[];
  kept: number;
  /** Kept set + bonus (before any penalty or luck bonus). */
  total: number;
}

export function testResult(spec: TestSpec, roll: Roll): TestResult {
  const n = spec.dice.length;
  const sets = Array.from({ length: setsOf(spec) }, (_, i) => roll.faces.slice(i * n, i * n + n));
  const setTotals = sets.map((set) => set.reduce((sum, f) => sum + f, 0));
  const kept = spec.level >= 0 ? Math.max(...setTotals) : Math.min(...setTotals);
  return { sets, setTotals, kept, total: kept + spec.bonus };
}

export function luckProblem(c: TeamsCombatant, roll: Roll | null | undefined): string | null {
  if (!roll) return `${c.name}'s luck die roll is missing.`;
  if (roll.faces.length !== 1) return `${c.name}'s luck roll is one d${c.luckDie}: ${roll.faces.length} given.`;
  const face = roll.faces[0]!;
  return Number.isInteger(face) && face >= 1 && face <= c.luckDie ? null : `${face} is not a face of ${c.name}'s luck die (d${c.luckDie}).`;
}

export const luckOf = (roll: Roll) => roll.faces[0]!;
/** An ordinary test: a luck roll of 20 or more adds +4 (attacks use the luck die differently). */
export const luckBonus = (luck: number) => (luck >= LUCKY_FACE ? LUCKY_BONUS : 0);

export const die = (c: TeamsCombatant, key: string, fallback: number) => (typeof c.sheet[key] === 'number' ? (c.sheet[key] as number) : fallback);

/** Guard: +1 to every defence and defensive test until the owner's next turn (R-T12). */
export const guardBonus = (c: TeamsCombatant) => (c.guarding ? 1 : 0);

/** The defensive tests the chapter spells out: Fortify = strength + athletics + fortitude (the Boudica example). */
export function reactionSpec(c: TeamsCombatant, reaction: ReactionKind, input: TestInput = {}): TestSpec | null {
  const label = reaction === 'dodge' ? 'Dodge' : reaction === 'fortify' ? 'Fortify' : 'Resist';
  if (input.dice && input.dice.length) return { label, dice: input.dice, bonus: (input.bonus ?? 0) + guardBonus(c), level: 0 };
  if (reaction === 'fortify') return { label, dice: [die(c, 'strength', 6), die(c, 'athletics', 4)], bonus: die(c, 'fortitude', 0) + (input.bonus ?? 0) + guardBonus(c), level: 0 };
  // Dodge: the chapter names no dice; the app uses dexterity + athletics unless the GM gives others.
  if (reaction === 'dodge') return { label, dice: [die(c, 'dexterity', 6), die(c, 'athletics', 4)], bonus: (input.bonus ?? 0) + guardBonus(c), level: 0 };
  return null;
}

/** A GM-described test (Resuscitate, Short Task): the dice must be given. */
export function gmTestSpec(label: string, input: TestInput): TestSpec | null {
  return input.dice && input.dice.length ? { label, dice: input.dice, bonus: input.bonus ?? 0, level: 0 } : null;
}
