// Where a Thrum encounter stands (setup, initiative, Round Zero, rounds, ended), read from the machine's snapshot.
import type { EncounterSnapshot } from '../../encounter/types.ts';
import type { ThrumContext } from './rules.ts';

export const contextOf = (snapshot: EncounterSnapshot) => snapshot.context as ThrumContext;
type Stage = 'setup' | 'initiative' | 'roundZero' | 'rounds' | 'ended';
export function stageOf(snapshot: EncounterSnapshot): Stage {
  if (snapshot.matches('setup')) return 'setup';
  if (snapshot.matches('initiative')) return 'initiative';
  if (snapshot.matches('roundZero')) return 'roundZero';
  if (snapshot.matches('ended')) return 'ended';
  return 'rounds';
}
export const turnOpen = (snapshot: EncounterSnapshot) => snapshot.matches({ roundZero: 'turn' }) || snapshot.matches({ rounds: 'turn' }) || snapshot.matches({ rounds: 'interrupts' });
