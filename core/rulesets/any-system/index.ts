import { defineRuleset } from '../types.ts';
import { severalTargetsOf } from '../../encounter/several-targets.ts';
import { anySystemDemo } from './demo.ts';
import { anySystemEncounter } from './encounter.ts';
import { anySystemActionForms } from './forms.ts';
import { anySystemImports } from './import/sheet-of.ts';
import { anySystemRecovery } from './ledger.ts';
import { anySystemOptions } from './options.ts';
import { anySystemSheet } from './sheet.ts';

export const anySystem = defineRuleset({
  id: 'any-system',
  name: 'Any system',
  summary: 'For games the app does not model (D&D 5e, Pathfinder, Savage Worlds…): initiative, HP with temporary HP, conditions, death saves.',
  sheet: anySystemSheet,
  options: anySystemOptions,
  encounter: {
    ...anySystemEncounter,
    actionForms: anySystemActionForms,
    severalTargets: severalTargetsOf(anySystemActionForms, 'APPLY_DAMAGE', 'HEAL'),
    // ADD_LATE_COMBATANT's `initiative`: the total typed, or rolled as the newcomer enters.
    lateInitiative: true,
    // Damage to HP is the track; temporary HP soak it first and are not counted. Down, dying, stable and dead are out.
    summary: { measure: 'damage', pools: [], down: /^(dead|dying|stable|down)\b/i },
  },
  recovery: anySystemRecovery,
  records: {
    categories: [
      { key: 'injury', label: 'Injury', harm: true },
      { key: 'death', label: 'Death', harm: false },
    ],
    isPermanent: () => false,
  },
  demo: anySystemDemo,
  imports: anySystemImports,
});
