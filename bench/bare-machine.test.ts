// The Replay baselines do the work they are named for: every generated event is taken (a new snapshot after each),
// whether the combatants are changed in place or copied.
import { describe, expect, it } from 'vitest';
import { bareEvents, replayBare } from './bare-machine.ts';

describe('bare Replay baselines', () => {
  it('take every event of a long run of turns, over several rounds', () => {
    const events = bareEvents(20, 600);
    expect(replayBare('in place', 20, events)).toBe(events.length);
    expect(replayBare('copied', 20, events)).toBe(events.length);
  });
});
