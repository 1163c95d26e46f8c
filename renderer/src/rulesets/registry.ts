// The renderer's additions of each ruleset, found by folder: `./<id>/index.ts` exports `ui: RulesetUi` (types.ts). No
// line names a ruleset, so a ruleset with no components of its own needs nothing here, and one with some adds its
// folder. Each folder is its own chunk, read the first time an encounter of that ruleset is opened.
import type { RulesetUi } from './types.ts';

const folders = import.meta.glob<RulesetUi>('./*/index.ts', { import: 'ui' });

/** Each folder's loader, keyed by the folder's name: the ruleset's id. */
const loaders = new Map(Object.entries(folders).map(([path, load]) => [path.split('/')[1]!, load]));

/** The rulesets with a folder of their own. */
export const RULESETS_WITH_UI: readonly string[] = [...loaders.keys()];

const GENERIC: RulesetUi = {};

/** What the ruleset adds to the encounter screens; nothing (the generic screens) for one without a folder. */
export function loadRulesetUi(rulesetId: string): Promise<RulesetUi> {
  return loaders.get(rulesetId)?.() ?? Promise.resolve(GENERIC);
}
