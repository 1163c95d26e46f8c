import { defineRuleset } from '../types.ts';
import { severalTargetsOf } from '../../encounter/several-targets.ts';
import { teamsDemo } from './demo.ts';
import { teamsEncounter } from './encounter.ts';
import { actionForms } from './forms.ts';
import { teamsRecovery } from './ledger.ts';
import { teamsOptions } from './options.ts';
import { teamsSheet } from './sheet.ts';

export const teams = defineRuleset({
  id: 'teams',
  name: 'Teams',
  summary: 'Team initiative, three actions, reactions with stamina and focus, endurance then health, cheating death.',
  sheet: teamsSheet,
  options: teamsOptions,
  encounter: {
    ...teamsEncounter,
    severalTargets: severalTargetsOf(actionForms, 'APPLY_DAMAGE', 'HEAL'),
    // Damage comes off Endurance before health: both are the track.
    summary: { measure: 'damage', pools: ['Endurance'] },
  },
  recovery: teamsRecovery,
  // A death and a cheated death are lasting marks, not harm that heals.
  records: {
    categories: [
      { key: 'death', label: 'Death', harm: false },
      { key: 'cheatDeath', label: 'Cheated death', harm: false },
    ],
    isPermanent: () => false,
  },
  demo: teamsDemo,
});
