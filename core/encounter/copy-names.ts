// The names copies of an NPC template take when they join a fight: shared by the handler that adds them and the
// prepare screen, which shows each copy's name before it is added.
import { NAME_MAX } from './schemas.ts';

/**
 * The names of `count` new copies of a template. A single copy, with no other of its name in the fight, keeps the
 * template's name ("Ogre Chief"); otherwise copies are numbered "Goblin 1", "Goblin 2"… taking the first numbers not
 * in use, where a copy already there under the bare name counts as number 1 (so a second Ogre Chief added later is
 * "Ogre Chief 2"; the first keeps its name, as the log already calls it).
 */
export function numberedNames(base: string, count: number, taken: ReadonlySet<string>): string[] {
  const stem = base.slice(0, NAME_MAX - 4);
  const used = new Set<number>();
  for (const name of taken) {
    if (name === base) used.add(1);
    const number = name.startsWith(`${stem} `) ? name.slice(stem.length + 1) : '';
    if (/^[1-9]\d*$/.test(number)) used.add(Number(number));
  }
  if (count === 1 && used.size === 0 && !taken.has(base)) return [base];
  const names: string[] = [];
  for (let n = 1; names.length < count; n += 1) {
    const name = `${stem} ${n}`;
    if (!used.has(n) && !taken.has(name)) names.push(name);
  }
  return names;
}
