// What a combatant's main pool says at a glance (issue 28, point 2). A pool that runs down (LP, HP, health) is
// bloodied at half its maximum or less and down at nothing; a load that rises toward a tolerance (Thrum's Fatigue)
// is over once it passes it.
import type { CombatantView } from '../../../core/encounter/types.ts';

export type PoolState = 'fine' | 'bloodied' | 'down' | 'over';

export function poolState(pool: NonNullable<CombatantView['health']>): PoolState {
  if (pool.rising) return pool.current > pool.max ? 'over' : 'fine';
  if (pool.current <= 0) return 'down';
  if (pool.current * 2 <= pool.max) return 'bloodied';
  return 'fine';
}
