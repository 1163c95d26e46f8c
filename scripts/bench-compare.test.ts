// Which reference figure a benchmark figure is compared with.
import { describe, expect, it } from 'vitest';
import { matchReference } from './bench-compare.mjs';

const f = (section: string, name: string) => ({ section, name });

describe('matching figures to the reference run', () => {
  it('matches whole names, and a changed closing "(…)" only when the shorter name is unique in both runs', () => {
    const reference = [
      f('UI latency', 'next turn p95 (200 combatants)'),
      f('UI latency', 'next turn p95 (20 combatants)'),
      f('Start', 'renderer bundle (dist/renderer, raw)'),
      f('Start', 'renderer bundle (dist/renderer, gzip)'),
      f('Replay', 'enigma events/s (200 combatants, 1500 events, round 2)'),
    ];
    const results = [
      f('UI latency', 'next turn p95 (20 combatants)'),
      f('UI latency', 'next turn p95 (200 combatants)'),
      f('Start', 'renderer bundle (dist/renderer, gzip)'),
      f('Start', 'renderer bundle (dist/renderer, raw)'),
      f('Replay', 'enigma events/s (200 combatants, 1500 events, round 3)'),
      f('Export', 'JSON, 10,000 events, first export after the app opens (replays every event)'),
    ];
    expect(matchReference(results, reference)).toEqual([reference[1], reference[0], reference[3], reference[2], reference[4], undefined]);
  });

  it('leaves a figure unmatched when its shorter name is shared and its whole name is new', () => {
    const reference = [f('UI latency', 'undo p95 (200 combatants)'), f('UI latency', 'undo p95 (20 combatants)')];
    expect(matchReference([f('UI latency', 'undo p95 (2,000 combatants)')], reference)).toEqual([undefined]);
  });
});
