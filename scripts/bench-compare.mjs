// Matching a benchmark run's figures to the reference run's (bench/reference.json), for `npm run bench`.

/** Section and name: a figure's identity when both runs name it the same. */
const exactKey = (r) => `${r.section}\u0000${r.name}`;

/**
 * Section and name without the closing "(…)", which may carry what the run generated (the round a fight reached,
 * how many injuries a campaign holds) and so differ between runs.
 */
const looseKey = (r) => `${r.section}\u0000${r.name.replace(/\s*\([^()]*\)$/, '')}`;

/**
 * The reference figure of each current one: the one with the same name, else the one whose name differs only in
 * its closing "(…)" when exactly one figure of each run has that shorter name. Figures such as "next turn p95 (200
 * combatants)" and "(20 combatants)" share it, and so are only ever matched by their whole names.
 */
export function matchReference(results, reference) {
  const exact = new Map(reference.map((r) => [exactKey(r), r]));
  const count = (list) => list.reduce((m, r) => m.set(looseKey(r), (m.get(looseKey(r)) ?? 0) + 1), new Map());
  const ours = count(results);
  const theirs = count(reference);
  const loose = new Map(reference.map((r) => [looseKey(r), r]));
  return results.map((r) => {
    const same = exact.get(exactKey(r));
    if (same) return same;
    const key = looseKey(r);
    return ours.get(key) === 1 && theirs.get(key) === 1 ? loose.get(key) : undefined;
  });
}
