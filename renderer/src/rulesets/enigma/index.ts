// What Enigma adds to the encounter screens: its action panel (with its keys and the row's ± that opens its damage
// form), the Mortal Peril prompt, the party and GM orders of the prepare screen, and how round 1's unplaced are shown.
import type { RulesetUi } from '../types.ts';
import ActionPanel from './ActionPanel.svelte';
import PerilPrompt from './PerilPrompt.svelte';
import PrepOrder from './PrepOrder.svelte';
import { ENIGMA_KEY_LINES } from './action-keys.ts';

export const ui: RulesetUi = {
  actionPanel: ActionPanel,
  actionKeyLines: ENIGMA_KEY_LINES,
  // Its keys are its own: 1 and 2 go to its two fields, not to the choices (RULES.md §1.5).
  prompts: { mortalPeril: { component: PerilPrompt, ownsKeys: true } },
  prepOrder: { component: PrepOrder, handles: ['SET_PARTY_ORDER', 'SET_GM_ORDER', 'SET_FIRST_SIDE'] },
  rowAction: { text: '±', label: (name) => `Damage or heal ${name}`, title: 'Damage or heal (D)', mode: 'damage', requires: 'APPLY_DAMAGE' },
  // Round 1: the party's coming slots are known; a GM slot's enemy only when the GM fixed an order.
  unplaced: { heading: 'Still to place this round', unknownNote: ' — ? = the GM picks at a GM slot', unknownMark: '?', unknownTitle: 'The GM picks when a GM slot comes up' },
};
