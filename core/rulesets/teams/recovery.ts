// Teams' recovery between fights (RULES.md §2.5, §2.6, R-T26). The combat chapter gives no recovery rules: pools
// keep their values out of combat, and these pure functions are the configurable hooks the recovery screen calls —
// restoring pools by amounts the GM's rules give, resetting them to their maxima, waking an unconscious character,
// repairing an item. The cheat-death difficulty never falls. Each returns a new condition and a log sentence, or
// throws RecoveryRefusal (changing nothing).
import { CHEAT_DEATH_STEP, defaultDurability, type ItemSlot } from './rules.ts';

/** A refusal a GM can read ("Boudica is dead: nothing recovers."). Nothing was changed. */
export class RecoveryRefusal extends Error {
  override name = 'RecoveryRefusal';
}

function refuse(message: string): never {
  throw new RecoveryRefusal(message);
}

export const POOLS = ['endurance', 'health', 'stamina', 'focus'] as const;
export type Pool = (typeof POOLS)[number];

/** The stored condition of a character (what an encounter carries out, §6.5). */
export interface TeamsCondition {
  endurance: number;
  health: number;
  stamina: number;
  focus: number;
  unconscious: boolean;
  cheatDeathDifficulty: number;
  items: Partial<Record<ItemSlot, { durability: number }>>;
  dead?: boolean;
}

export interface RecoveringCharacter {
  name: string;
  sheet: Record<string, string | number | boolean>;
  condition: TeamsCondition;
}

export interface RecoveryResult {
  condition: TeamsCondition;
  text: string;
}

const num = (sheet: RecoveringCharacter['sheet'], key: string, fallback: number) => (typeof sheet[key] === 'number' ? (sheet[key] as number) : fallback);

export function poolMax(sheet: RecoveringCharacter['sheet'], pool: Pool): number {
  return num(sheet, `${pool}Max`, pool === 'endurance' || pool === 'health' ? 12 : 4);
}

/** Item durability maximum: the listed value, else 10 for metal and 4 otherwise (§2.4 step 10). */
export function itemMax(sheet: RecoveringCharacter['sheet'], slot: ItemSlot): number | null {
  if (slot === 'shield' && !sheet['shieldName']) return null;
  const listed = num(sheet, `${slot}Durability`, 0);
  const metal = slot === 'weapon' ? sheet['weaponMetal'] !== false : sheet['shieldMetal'] === true;
  return listed || defaultDurability(metal);
}

/** The condition of a character who has not fought yet: everything at its maximum. */
export function freshCondition(sheet: RecoveringCharacter['sheet']): TeamsCondition {
  const items: TeamsCondition['items'] = { weapon: { durability: itemMax(sheet, 'weapon')! } };
  const shield = itemMax(sheet, 'shield');
  if (shield !== null) items.shield = { durability: shield };
  return {
    endurance: poolMax(sheet, 'endurance'), health: poolMax(sheet, 'health'), stamina: poolMax(sheet, 'stamina'), focus: poolMax(sheet, 'focus'),
    unconscious: false, cheatDeathDifficulty: num(sheet, 'cheatDeathDifficulty', 10), items,
  };
}

function alive(character: RecoveringCharacter): void {
  if (character.condition.dead) refuse(`${character.name} is dead: nothing recovers.`);
}

/**
 * Restores pools by the amounts given (the GM's rest rules), each capped at its maximum. Health above zero
 * wakes an unconscious character only when `wake` is set: the chapter does not say resting revives.
 */
export function restorePools(character: RecoveringCharacter, amounts: Partial<Record<Pool, number>>, wake = false): RecoveryResult {
  alive(character);
  const entries = Object.entries(amounts) as [Pool, number][];
  if (entries.length === 0) refuse('Say which pools recover and by how much.');
  for (const [pool, amount] of entries) {
    if (!POOLS.includes(pool)) refuse(`${pool} is not a pool: endurance, health, stamina or focus.`);
    if (!Number.isInteger(amount) || amount < 1) refuse(`${pool[0]!.toUpperCase()}${pool.slice(1)} recovers by a whole number of at least 1.`);
  }
  const condition = { ...character.condition };
  const parts: string[] = [];
  for (const [pool, amount] of entries) {
    const max = poolMax(character.sheet, pool);
    const next = Math.min(max, condition[pool] + amount);
    parts.push(`${pool} ${condition[pool]} → ${next}/${max}`);
    condition[pool] = next;
  }
  if (wake && condition.health > 0) condition.unconscious = false;
  const woke = character.condition.unconscious && !condition.unconscious;
  if (!woke && entries.every(([pool]) => condition[pool] === character.condition[pool])) {
    refuse(`${character.name}'s ${listPools(entries.map(([pool]) => pool))} ${entries.length === 1 ? 'is' : 'are'} already at ${entries.length === 1 ? 'its' : 'their'} maximum.`);
  }
  const after = woke ? '; conscious again' : condition.unconscious ? `; still unconscious${condition.health > 0 ? ' (wake them to bring them round)' : ' at zero health'}` : '';
  return { condition, text: `${character.name} recovers: ${parts.join(', ')}${after}.` };
}

/**
 * R-T26 "reset": every pool back to its maximum and conscious; items and the cheat-death difficulty are untouched.
 * Refused when there is nothing to reset.
 */
export function resetPools(character: RecoveringCharacter): RecoveryResult {
  alive(character);
  const condition: TeamsCondition = { ...character.condition, unconscious: false };
  const parts: string[] = [];
  for (const pool of POOLS) {
    const max = poolMax(character.sheet, pool);
    if (character.condition[pool] !== max) parts.push(`${pool} ${character.condition[pool]} → ${max}/${max}`);
    condition[pool] = max;
  }
  if (character.condition.unconscious) parts.push('conscious again');
  if (parts.length === 0) refuse(`${character.name} has nothing to recover: endurance, health, stamina and focus are at their maximum.`);
  return { condition, text: `${character.name} rests, pools back to their maximum (R-T26): ${parts.join(', ')}.` };
}

/** "endurance", "endurance and health", "endurance, health and focus". */
function listPools(pools: readonly Pool[]): string {
  return pools.length <= 1 ? (pools[0] ?? '') : `${pools.slice(0, -1).join(', ')} and ${pools[pools.length - 1]}`;
}

/** Brings an unconscious character round outside combat (someone tends them); at zero health it needs health first. */
export function wake(character: RecoveringCharacter): RecoveryResult {
  alive(character);
  if (!character.condition.unconscious) refuse(`${character.name} is already conscious.`);
  if (character.condition.health === 0) refuse(`${character.name} is at zero health: restore some health first.`);
  return { condition: { ...character.condition, unconscious: false }, text: `${character.name} comes round.` };
}

/** Repairs an item's durability by `amount` (all the way when not given), up to its maximum; a broken item (0) can be repaired too. */
export function repairItem(character: RecoveringCharacter, slot: ItemSlot, amount?: number): RecoveryResult {
  alive(character);
  const max = itemMax(character.sheet, slot);
  if (max === null) refuse(`${character.name} has no shield to repair.`);
  if (amount !== undefined && (!Number.isInteger(amount) || amount < 1)) refuse('Durability is repaired by a whole number of at least 1.');
  const current = Math.min(max, character.condition.items[slot]?.durability ?? max);
  if (current >= max) refuse(`${character.name}'s ${slot} is not damaged.`);
  const durability = Math.min(max, current + (amount ?? max));
  return {
    condition: { ...character.condition, items: { ...character.condition.items, [slot]: { durability } } },
    text: `${character.name}'s ${slot} is repaired: durability ${current} → ${durability}/${max}${current === 0 ? ' (no longer broken)' : ''}.`,
  };
}

/** The cheat-death difficulty after a success: +5, for good (§2.4 step 13). It is never lowered by recovery. */
export const cheatDeathAfterSuccess = (difficulty: number): number => difficulty + CHEAT_DEATH_STEP;
