// Thrum's health as pure functions (RULES.md §5.5, R-H8, R-H15): statuses and their stacks, the numbers derived
// from them, loads against tolerances, and becoming Incapacitated.
import { currentSpeed } from './grid.ts';
import { activeId, inFight, stacksOf, type Roll, type ThrumCombatant, type ThrumContext } from './rules.ts';
import { rulingsOf } from './options.ts';
import { update } from '../../encounter/roster.ts';

// ---- statuses (R-H15) ----

/** Statuses the combat page names, and whether they count down at the end of the bearer's turn by default. */
const STATUS_TICKS: Record<string, boolean> = { Stunned: true, Slowed: true, Dazed: true, Vulnerable: false };

export const statusName = (raw: string): string => {
  const trimmed = raw.trim();
  return trimmed.charAt(0).toUpperCase() + trimmed.slice(1);
};

export function ticksFor(ctx: ThrumContext, status: string, explicit: boolean | null | undefined): boolean {
  if (explicit !== null && explicit !== undefined) return explicit;
  if (rulingsOf(ctx.options).statusCountdown === 'allStacksTick') return true;
  return STATUS_TICKS[status] ?? true;
}

export function addStatus(ctx: ThrumContext, id: string, raw: string, stacks: number, explicitTicks?: boolean | null): ThrumContext {
  const c = ctx.combatants[id]!;
  const status = statusName(raw);
  const current = c.statuses[status];
  const ticks = current?.ticks ?? ticksFor(ctx, status, explicitTicks);
  return update(ctx, id, { statuses: { ...c.statuses, [status]: { stacks: (current?.stacks ?? 0) + stacks, ticks } } });
}

export function removeStatus(ctx: ThrumContext, id: string, raw: string, stacks: number | null | undefined): ThrumContext {
  const c = ctx.combatants[id]!;
  const status = statusName(raw);
  const current = c.statuses[status];
  if (!current) return ctx;
  const left = stacks === null || stacks === undefined ? 0 : current.stacks - stacks;
  const { [status]: _gone, ...rest } = c.statuses;
  return update(ctx, id, { statuses: left > 0 ? { ...rest, [status]: { ...current, stacks: left } } : rest });
}

// ---- derived numbers ----

export const speedOf = (c: ThrumCombatant, ctx: ThrumContext): number =>
  currentSpeed(c.speed, stacksOf(c, 'Slowed'), rulingsOf(ctx.options).slowedSpeedPerStack);

export const floor = (n: number): number => Math.max(0, n); // R-H8: loads and tolerances never go below 0

export const isFoe = (a: ThrumCombatant, b: ThrumCombatant): boolean => a.side !== b.side;
export const possessive = (name: string) => `${name}'${name.endsWith('s') ? '' : 's'}`;
export const sumFaces = (roll: Roll): number => roll.faces.reduce((a, b) => a + b, 0);

/** Who stands where, for occupancy and cover. */
export const occupants = (ctx: ThrumContext) =>
  Object.values(ctx.combatants).filter((c) => inFight(c) && c.position !== null).map((c) => ({ id: c.id, square: c.position! }));

export const stunnedSkipsAction = (ctx: ThrumContext, c: ThrumCombatant): boolean => rulingsOf(ctx.options).stunned !== 'gmAdjudicates' && stacksOf(c, 'Stunned') > 0;

// ---- incapacity (§5.5) ----

/** Becoming Incapacitated: the stance ends, Fatigue Tolerance and Load −1 (minimum 0); Load 0 ends it at once. */
export function becomeIncapacitated(ctx: ThrumContext, id: string): ThrumContext {
  const c = ctx.combatants[id]!;
  const fatigueLoad = floor(c.fatigueLoad - 1);
  let next = update(ctx, id, { incapacitated: fatigueLoad > 0, stance: null, fatigueTolerance: floor(c.fatigueTolerance - 1), fatigueLoad });
  if (activeId(next) === id) next = { ...next, turn: { ...next.turn, movementClosed: true, acted: true, stanceTaken: true, begun: true } };
  return next;
}

export function setLoad(ctx: ThrumContext, id: string, load: 'fatigue' | 'stress', value: number): ThrumContext {
  const c = ctx.combatants[id]!;
  if (load === 'stress') return update(ctx, id, { stressLoad: floor(value) });
  const fatigueLoad = floor(value);
  // Fatigue Load reaching 0 is one of the three ways out of Incapacitated (§5.5).
  return update(ctx, id, { fatigueLoad, incapacitated: c.incapacitated && fatigueLoad > 0 });
}
