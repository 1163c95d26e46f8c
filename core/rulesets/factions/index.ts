import { defineRuleset } from '../types.ts';
import { severalTargetsOf } from '../../encounter/several-targets.ts';
import { factionsDemo } from './demo.ts';
import { factionsEncounter } from './encounter.ts';
import { factionsActionForms } from './forms.ts';
import { factionsRecovery } from './ledger.ts';
import { factionsOptions } from './options.ts';
import { factionsSheet } from './sheet.ts';

export const factions = defineRuleset({
  id: 'factions',
  name: 'Factions',
  summary: 'Murdham: factions alternate or pass, zones, reactions that take the turn, morale.',
  sheet: factionsSheet,
  options: factionsOptions,
  encounter: { ...factionsEncounter, severalTargets: severalTargetsOf(factionsActionForms, 'APPLY_DAMAGE', 'HEAL') },
  recovery: factionsRecovery,
  // Damaged or destroyed gear rides the records' channel; it is not harm.
  records: {
    categories: [{ key: 'gear', label: 'Gear', harm: false }],
    isPermanent: () => false,
  },
  demo: factionsDemo,
});
