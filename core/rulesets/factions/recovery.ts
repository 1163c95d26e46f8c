// Factions' rules for after the fight and between fights (RULES.md §3.6; the game is Murdham): group saves, gear
// durability (R-F21, R-F22), improvised weapons, long chases, the end of a stretch that lifts morale immunity, and
// the GM's repairs and replacements of gear. Health recovery, injuries and rests are not in this chapter: the GM
// sets health directly. Pure functions: each refusal is a sentence a GM understands.
import type { OptionValues } from '../options.ts';
import type { Gear, GearItem, GearState } from './rules.ts';
import { rulingsOf } from './options.ts';

/** A group save (R-F8): one d20 against each member's score; a pass when the die shows the score or less. */
export function groupSave(face: number, members: { id: string; score: number }[]): { id: string; score: number; passed: boolean }[] {
  return members.map((m) => ({ ...m, passed: face <= m.score }));
}

/**
 * A durability result on an item that was used (§3.6): a failure marks it damaged. R-F22: an item already damaged
 * that fails again stays damaged (default) or, with the alternative, is destroyed.
 */
export function applyDurability(state: GearState, result: 'ok' | 'damaged', options: OptionValues): GearState {
  if (state === 'none' || state === 'destroyed' || result === 'ok') return state;
  if (state === 'damaged') return rulingsOf(options).damagedFailsAgain === 'destroyed' ? 'destroyed' : 'damaged';
  return 'damaged';
}

export function durabilityRefusal(name: string, item: GearItem, state: GearState): string | null {
  if (state === 'none') return `${name} has no ${item}.`;
  if (state === 'destroyed') return `${name}'s ${item} was destroyed and has left the inventory.`;
  return null;
}

/** Improvised weapons work as a simple hand or great weapon but are handled as already damaged (§3.6). */
export const IMPROVISED_WEAPON_STATE: GearState = 'damaged';

/** Destroyed items leave the inventory (§3.6): what the sheet should show after the fight. */
export function inventoryAfterFight(gear: Gear): { kept: GearItem[]; damaged: GearItem[]; lost: GearItem[] } {
  const items = Object.entries(gear) as [GearItem, GearState][];
  return {
    kept: items.filter(([, s]) => s === 'intact' || s === 'damaged').map(([i]) => i),
    damaged: items.filter(([, s]) => s === 'damaged').map(([i]) => i),
    lost: items.filter(([, s]) => s === 'destroyed').map(([i]) => i),
  };
}

export type ChaseEdge = 'none' | 'fleeingFaster' | 'pursuersFaster';

/**
 * A long chase (§3.6): with no edge, the fleeing make a group AGI save (one d20 against each AGI); if the fleeing
 * are faster or can keep the pace longer no save is needed, and if the pursuers have that edge escape is impossible.
 */
export function resolveChase(fleeing: { id: string; agi: number }[], edge: ChaseEdge, face: number | null): { id: string; escaped: boolean }[] | string {
  if (fleeing.length === 0) return 'Choose who is fleeing.';
  if (edge === 'fleeingFaster') return fleeing.map((f) => ({ id: f.id, escaped: true }));
  if (edge === 'pursuersFaster') return fleeing.map((f) => ({ id: f.id, escaped: false }));
  if (face === null || !Number.isInteger(face) || face < 1 || face > 20) return 'The group AGI save needs one d20.';
  return groupSave(face, fleeing.map((f) => ({ id: f.id, score: f.agi }))).map((r) => ({ id: r.id, escaped: r.passed }));
}

/** What a character carries on the campaign between fights (RULES.md §6.5: health and morale flags, and gear). */
export interface FactionsState {
  health?: number;
  incapacitated?: boolean;
  dying?: boolean;
  dead?: boolean;
  moraleImmune?: boolean;
  moraleFailed?: boolean;
  gear?: Partial<Gear>;
}

/** The stretch ends (R-F8): immunity from passing a morale check lapses, and a failed check is behind them. */
export function endStretch(name: string, state: FactionsState): FactionsState | string {
  if (state.dead) return `${name} is dead: nothing recovers.`;
  if (!state.moraleImmune && !state.moraleFailed) return `${name} has no morale flag to clear: no morale check was passed or failed this stretch.`;
  return { ...state, moraleImmune: false, moraleFailed: false };
}

/**
 * The GM sets health between fights (how health returns is outside this chapter); 0 to the maximum. Health above 0
 * ends dying and, unless the GM says the character is still incapacitated, incapacitation; at 0 the character is
 * incapacitated. With plain HP (R-F20 alternative) incapacitation is exactly health 0, so it cannot be kept above 0.
 */
export function setHealth(
  character: { name: string; state: FactionsState; healthMax: number },
  health: number,
  options: OptionValues,
  stillIncapacitated = false,
): FactionsState | string {
  const { name, state, healthMax } = character;
  if (state.dead) return `${name} is dead: nothing recovers.`;
  if (!Number.isInteger(health) || health < 0 || health > healthMax) return `${name}'s health is a whole number from 0 to ${healthMax}.`;
  if (stillIncapacitated && health > 0 && rulingsOf(options).healthModel === 'hpZeroIncapacitates') {
    return `With plain HP (R-F20) ${name} is incapacitated only at 0 health.`;
  }
  const next: FactionsState = { ...state, health, incapacitated: health === 0 || stillIncapacitated, dying: health > 0 ? false : Boolean(state.dying) };
  if (next.health === state.health && next.incapacitated === Boolean(state.incapacitated) && next.dying === Boolean(state.dying)) {
    return `${name} already has ${health} health${next.incapacitated ? ' and is incapacitated' : ''}: nothing changes.`;
  }
  return next;
}

/** A repair between fights (the chapter gives no repair rules or cost: the GM notes them): a damaged item is whole. */
export function repairGear(name: string, item: GearItem, state: GearState): { state: GearState } | string {
  if (state === 'none') return `${name} has no ${item}.`;
  if (state === 'destroyed') return `${name}'s ${item} was destroyed and has left the inventory: replace it instead.`;
  if (state === 'intact') return `${name}'s ${item} is not damaged.`;
  return { state: 'intact' };
}

/** A replacement between fights for a damaged or destroyed item (new gear of the same kind; the GM notes the cost). */
export function replaceGear(name: string, item: GearItem, state: GearState): { state: GearState } | string {
  if (state === 'none') return `${name} has no ${item} on the character sheet: add it there first.`;
  if (state === 'intact') return `${name}'s ${item} is intact: there is nothing to replace.`;
  return { state: 'intact' };
}
