import { defineRuleset } from '../types.ts';
import { severalTargetsOf } from '../../encounter/several-targets.ts';
import { thrumDemo } from './demo.ts';
import { thrumEncounter } from './encounter.ts';
import { thrumActionForms } from './forms.ts';
import { thrumRecovery } from './ledger.ts';
import { thrumOptions } from './options.ts';
import { thrumSheet } from './sheet.ts';

export const thrum = defineRuleset({
  id: 'thrum',
  name: 'Thrum',
  summary: 'Rolled initiative with delay, Round Zero, stances, fatigue and stress against tolerances, wounds.',
  sheet: thrumSheet,
  options: thrumOptions,
  encounter: {
    ...thrumEncounter,
    actionForms: thrumActionForms,
    // Thrum's harm is Load (Fatigue or Stress; a negative amount sheds it): no separate healing form.
    severalTargets: severalTargetsOf(thrumActionForms, 'APPLY_LOAD'),
    // No damage: the track is the Fatigue Load (the view's health) plus the Stress Load, and a rise is harm taken.
    summary: { measure: 'loads', pools: ['Stress'] },
  },
  recovery: thrumRecovery,
  records: {
    categories: [{ key: 'wound', label: 'Wound', harm: true }],
    isPermanent: () => false,
  },
  demo: thrumDemo,
});
