// The renderer's additions of each ruleset, found by folder: `./<id>/index.ts` exports `ui: RulesetUi` (types.ts). No
// line names a ruleset, so a ruleset with no components of its own needs nothing here, and one with some adds its
// folder. Read eagerly: the components come with the screens that draw them (a split per ruleset would read them lazily).
import type { RulesetUi } from './types.ts';

const folders = import.meta.glob<RulesetUi>('./*/index.ts', { eager: true, import: 'ui' });

/** Each folder's additions, keyed by the folder's name: the ruleset's id. */
export const RULESET_UIS: ReadonlyMap<string, RulesetUi> = new Map(
  Object.entries(folders).map(([path, ui]) => [path.split('/')[1]!, ui]),
);

const GENERIC: RulesetUi = {};

/** What the ruleset adds to the encounter screens; nothing (the generic screens) for one without a folder. */
export function rulesetUi(rulesetId: string): RulesetUi {
  return RULESET_UIS.get(rulesetId) ?? GENERIC;
}
