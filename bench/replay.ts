// Replay: events per second replayed through each ruleset's machine (the kernel's resume: rules checked, machine
// stepped, log lines written) with 200 combatants, beside a bare XState 5 actor of similar size doing the same
// number of transitions in the same run (bench/bare-machine.ts): held to half the rate of the actor that changes
// its combatants in place, and reported beside the one that copies its combatant record on each change as the
// rulesets did before their combatant tables.
import { EncounterEngine } from '../core/encounter/kernel.ts';
import { bareEvents, replayBare } from './bare-machine.ts';
import { generateFight, RULESET_IDS } from './fight.ts';
import { benchResult, type BenchOptions, type BenchResult } from './result.ts';
import { alternating, median } from './timing.ts';

export const COMBATANTS = 200;

export function benchReplay(options: BenchOptions): BenchResult[] {
  const length = options.quick ? 150 : 1500;
  const results: BenchResult[] = [];
  for (const [index, rulesetId] of RULESET_IDS.entries()) {
    options.note(`Replay: generating a ${rulesetId} fight of ${length} events with ${COMBATANTS} combatants`);
    const fight = generateFight(rulesetId, COMBATANTS, length, index + 1);
    const events = fight.events;
    const runs = options.quick ? 2 : 7;
    const bare = bareEvents(COMBATANTS, events.length);
    // Ours and the baseline take turns, so both meet the same moments of the machine (its garbage collections, the
    // other work on it); run as two blocks, a slow spell fell on one of them only.
    const [ours, inPlace, copied] = alternating([
      () => EncounterEngine.resume(fight.rules, fight.input, undefined, events),
      () => replayBare('in place', COMBATANTS, bare),
      () => replayBare('copied', COMBATANTS, bare),
    ], { runs, warmup: 1 }).map(median) as [number, number, number];
    const name = `${rulesetId} events/s (${COMBATANTS} combatants, ${events.length} events, round ${fight.view.round})`;
    const value = (events.length / ours) * 1000;
    results.push(benchResult({
      section: 'Replay',
      name,
      value,
      unit: 'events/s',
      baseline: { name: 'bare XState 5 actor, same number of transitions, combatants changed in place', value: (bare.length / inPlace) * 1000 },
      target: { op: '>=', value: 0.5, of: 'ratio' },
    }), benchResult({
      section: 'Replay',
      name: `${name}, against the record copied on each change`,
      value,
      unit: 'events/s',
      baseline: { name: 'bare XState 5 actor, same number of transitions, combatant record copied on each change', value: (bare.length / copied) * 1000 },
    }));
  }
  return results;
}
