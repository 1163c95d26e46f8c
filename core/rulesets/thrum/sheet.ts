// Thrum's character sheet (RULES.md §5.3–5.6, §6.5): defence and attack modifiers, Initiative modifier and Speed, and
// the persistent Fatigue and Stress Tolerances (current and base) and Wounds. Loads reset every combat and are not kept.
import type { SheetSchema } from '../sheet.ts';

export const thrumSheet: SheetSchema = {
  mainPool: { label: 'Fatigue Tolerance', keys: ['baseFatigueTolerance', 'fatigueTolerance'] },
  fields: [
    {
      kind: 'integer', key: 'resilience', label: 'Resilience', group: 'Defences', default: 0, min: -5, max: 10,
      help: 'Normally the END modifier; defends against physical attacks and adds to Incapacity Rolls (§5.4, §5.5).',
    },
    {
      kind: 'integer', key: 'evasion', label: 'Evasion', group: 'Defences', default: 0, min: -5, max: 10,
      help: 'Normally the REF modifier; +1 Boon unless Vulnerable, and a mere success still gains Vulnerable (§5.4).',
    },
    {
      kind: 'integer', key: 'resolve', label: 'Resolve', group: 'Defences', default: 0, min: -5, max: 10,
      help: 'Normally the FOC modifier; defends against mental attacks and adds to Panic Rolls (§5.4, §5.5).',
    },
    {
      kind: 'integer', key: 'highestArtModifier', label: 'Highest Art modifier', short: 'Art mod.', group: 'Combat', default: 0, min: -5, max: 10,
      help: 'A Basic Attack rolls the highest Combat Art modifier (§5.4 step 4).',
    },
    {
      kind: 'integer', key: 'initiativeModifier', label: 'Initiative modifier', short: 'Init. mod.', group: 'Combat', default: 0, min: -5, max: 10,
      help: 'Initiative is 2d6 + this; ties go to the higher modifier (R-H1).',
    },
    {
      kind: 'integer', key: 'speed', label: 'Speed', group: 'Combat', default: 5, min: 0, max: 20,
      help: 'Squares of movement per turn; each Slowed stack lowers it (R-H12).',
    },
    {
      kind: 'integer', key: 'baseFatigueTolerance', label: 'Base Fatigue Tolerance', short: 'Base Fatigue', group: 'Tolerances', default: 5, min: 0, max: 30,
      help: 'The value Downtime restores (R-H17).',
    },
    {
      kind: 'integer', key: 'fatigueTolerance', label: 'Fatigue Tolerance', short: 'Fatigue', group: 'Tolerances', default: 5, min: 0, max: 30,
      help: 'Exhausted while Fatigue Load exceeds it; drops by 1 each turn spent Incapacitated and carries into the next fight (§5.5).',
    },
    {
      kind: 'integer', key: 'baseStressTolerance', label: 'Base Stress Tolerance', short: 'Base Stress', group: 'Tolerances', default: 5, min: 0, max: 30,
      help: 'The value Downtime restores (R-H17).',
    },
    {
      kind: 'integer', key: 'stressTolerance', label: 'Stress Tolerance', short: 'Stress', group: 'Tolerances', default: 5, min: 0, max: 30,
      help: 'Frayed while Stress Load exceeds it; a failed Panic Roll lowers it by 1 (§5.5).',
    },
    {
      kind: 'integer', key: 'wounds', label: 'Wounds', group: 'Wounds', default: 0, min: 0, max: 3,
      help: 'Taken when a turn ends Incapacitated at Fatigue Tolerance 0; three remove the character (§5.5).',
    },
    {
      kind: 'flag', key: 'stillIncapacitated', label: 'Still incapacitated after combat', group: 'Wounds', default: false,
      help: 'Fatigue Tolerance was 0 when combat ended: out of action until Downtime (R-H9).',
    },
    { kind: 'text', key: 'notes', label: 'Notes', group: 'Details', default: '', maxLength: 4000, multiline: true },
  ],
};
