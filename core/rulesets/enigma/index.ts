import { defineRuleset } from '../types.ts';
import { enigmaDemo } from './demo.ts';
import { enigmaEncounter } from './encounter.ts';
import { enigmaSeveralTargets } from './forms.ts';
import { INJURY_CATEGORIES } from './injuries.ts';
import { enigmaRecovery } from './ledger.ts';
import { enigmaOptions } from './options.ts';
import { enigmaSheet } from './sheet.ts';

export const enigma = defineRuleset({
  id: 'enigma',
  name: 'Enigma',
  summary: 'Alternating order of battle, two actions, reaction debt, Escalation, Mortal Peril and injuries.',
  sheet: enigmaSheet,
  options: enigmaOptions,
  encounter: { ...enigmaEncounter, severalTargets: enigmaSeveralTargets },
  recovery: enigmaRecovery,
  // Every record is an injury, labelled by its category (R-E26); a permanent one never heals (R-E27).
  records: {
    categories: INJURY_CATEGORIES.map(({ key, label }) => ({ key, label, harm: true })),
    isPermanent: (data) => data['permanent'] === true,
  },
  demo: enigmaDemo,
});
