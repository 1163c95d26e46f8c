import { defineRuleset } from '../types.ts';
import { severalTargetsOf } from '../../encounter/several-targets.ts';
import { cairnErrantDemo } from './demo.ts';
import { cairnErrantEncounter } from './encounter.ts';
import { cairnErrantActionForms } from './forms.ts';
import { cairnErrantRecovery } from './ledger.ts';
import { cairnErrantOptions } from './options.ts';
import { cairnErrantSheet } from './sheet.ts';

export const cairnErrant = defineRuleset({
  id: 'cairn-errant',
  name: 'Cairn-Errant',
  summary: 'Block, Dodge & Parry: declared intents, quick and full turns, fatigue, critical damage and wounds.',
  sheet: cairnErrantSheet,
  options: cairnErrantOptions,
  encounter: {
    ...cairnErrantEncounter,
    actionForms: cairnErrantActionForms,
    // No healing by an amount among its action forms: the selection bar offers Damage only.
    severalTargets: severalTargetsOf(cairnErrantActionForms, 'APPLY_DAMAGE'),
    // Damage comes off HP and then STR: both are the track.
    summary: { measure: 'damage', pools: ['STR'] },
  },
  recovery: cairnErrantRecovery,
  // Injuries and wounds are harm; a permanent wound never heals.
  records: {
    categories: [
      { key: 'injury', label: 'Injury', harm: true },
      { key: 'wound', label: 'Wound', harm: true },
    ],
    isPermanent: (data) => data['severity'] === 'permanent',
  },
  demo: cairnErrantDemo,
});
