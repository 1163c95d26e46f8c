// "Any system"'s recovery between fights, pure: a character's condition (HP, temporary HP, dead) read from its sheet
// and stored state, and what a short rest and a long rest restore under the campaign's rulings (R-A10, R-A11).
// Each step returns the new condition and its sentence, or throws RecoveryRefusal (changing nothing).
import type { OptionValues } from '../options.ts';
import { rulingsOf } from './options.ts';

export class RecoveryRefusal extends Error {
  override name = 'RecoveryRefusal';
}

export function refuse(message: string): never {
  throw new RecoveryRefusal(message);
}

export interface AnyCondition {
  hp: number;
  hpMax: number;
  tempHp: number;
  dead: boolean;
}

const int = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v);

/** The condition from a stored sheet and state (the state wins: it holds what the last fight or rest left). */
export function conditionOf(sheet: Record<string, unknown>, state: Record<string, unknown> = {}): AnyCondition {
  const hpMax = int(sheet['hpMax']) ? sheet['hpMax'] : 10;
  const hp = int(state['hp']) ? state['hp'] : int(sheet['hp']) ? sheet['hp'] : hpMax;
  const tempHp = int(state['tempHp']) ? state['tempHp'] : int(sheet['tempHp']) ? sheet['tempHp'] : 0;
  return { hp: Math.max(0, Math.min(hp, hpMax)), hpMax, tempHp: Math.max(0, tempHp), dead: state['dead'] === true };
}

export interface RestResult {
  condition: AnyCondition;
  text: string;
}

function changes(before: AnyCondition, after: AnyCondition): string[] {
  const parts: string[] = [];
  if (after.hp !== before.hp) parts.push(`HP ${before.hp} → ${after.hp}`);
  if (after.tempHp !== before.tempHp) parts.push(`temporary HP ${before.tempHp} → ${after.tempHp}`);
  return parts;
}

/** A short rest heals the HP the GM typed, up to the maximum (R-A11). */
export function shortRest(name: string, c: AnyCondition, options: OptionValues, hp: number): RestResult {
  if (c.dead) refuse(`${name} is dead: a rest restores nothing to the dead.`);
  if (rulingsOf(options).shortRestHp === 'none') refuse('A short rest restores nothing in this campaign (R-A11).');
  const next = { ...c, hp: Math.min(c.hpMax, c.hp + hp) };
  const parts = changes(c, next);
  return { condition: next, text: `${name} takes a short rest: ${parts.length ? parts.join(', ') : c.hp >= c.hpMax ? 'already at full HP' : 'no HP healed'}.` };
}

/** A long rest: HP as R-A10 says (the maximum, half of it at least, or unchanged), temporary HP to 0. */
export function longRest(name: string, c: AnyCondition, options: OptionValues): RestResult {
  if (c.dead) refuse(`${name} is dead: a rest restores nothing to the dead.`);
  const mode = rulingsOf(options).longRestHp;
  const hp = mode === 'full' ? c.hpMax : mode === 'half' ? Math.max(c.hp, Math.ceil(c.hpMax / 2)) : c.hp;
  const next = { ...c, hp, tempHp: 0 };
  const parts = changes(c, next);
  return { condition: next, text: `${name} takes a long rest${parts.length ? `: ${parts.join(', ')}` : ''}.` };
}

/** The GM brings a dead character back at the HP typed. */
export function revive(name: string, c: AnyCondition, hp: number): RestResult {
  if (!c.dead) refuse(`${name} is not dead.`);
  if (hp < 1) refuse('Bring them back with at least 1 HP.');
  const next = { ...c, dead: false, hp: Math.min(c.hpMax, hp) };
  return { condition: next, text: `${name} is brought back to life at ${next.hp} HP.` };
}

export const stateOf = (c: AnyCondition): Record<string, unknown> => ({ hp: c.hp, tempHp: c.tempHp, dead: c.dead });
