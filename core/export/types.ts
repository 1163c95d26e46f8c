// What leaves the app: an encounter as events (replayable to the same state), its readable log and per-round
// summary, and a whole campaign. Versioned formats, documented in docs/export-schema.md.
import type { GmEvent, EncounterInput, LogLine } from '../encounter/types.ts';
import type { RulesetId } from '../rulesets/types.ts';

export const ENCOUNTER_FORMAT = 'gm-workstation/encounter';
export const CAMPAIGN_FORMAT = 'gm-workstation/campaign';
/** Bump when the shape changes; an import refuses versions newer than this. */
export const EXPORT_VERSION = 1;
/**
 * The largest file the importer reads, in MB. A campaign file takes about 130 bytes per stored event, so 100 MB holds
 * some 750,000 events; an encounter file with its log and round table about 640 bytes per event.
 */
export const IMPORT_MAX_MB = 100;

/** One combatant's figures for one round. `dealt`/`taken`: damage (or, for Thrum, loads) in that round. */
export interface RoundFigures {
  id: string;
  name: string;
  side: string;
  dealt: number;
  taken: number;
  healed: number;
  /** Tags shown at the end of the round (statuses, conditions). */
  statuses: string[];
  /** Went down (out of the fight, dead, incapacitated) during this round. */
  down: boolean;
}

export interface RoundSummary {
  round: number;
  /** What `dealt`/`taken` count: 'damage' or, for Thrum, 'loads'. */
  measure: 'damage' | 'loads';
  combatants: RoundFigures[];
}

export interface ExportLogLine extends LogLine {
  seq: number;
}

/** An encounter as exported: enough to replay it to the same state, plus what a reader wants. */
export interface EncounterExport {
  format: typeof ENCOUNTER_FORMAT;
  version: typeof EXPORT_VERSION;
  exportedAt: string;
  rulesetId: RulesetId;
  encounter: {
    id: string;
    name: string;
    campaignName: string;
    createdAt: string;
    phase: 'setup' | 'running' | 'ended';
    round: number;
    /** The machine input frozen at creation (rulings and carried party values). */
    input: EncounterInput;
  };
  /** Every GM event in order, every die inside; replaying them from `input` gives the same state. */
  events: GmEvent[];
  /** The readable log as it was written when each event was applied. */
  log: ExportLogLine[];
  summary: RoundSummary[];
}

/** Where a rendered export goes: a file name, its type and its text. */
export interface ExportFile {
  filename: string;
  mime: 'text/markdown' | 'text/html' | 'application/json';
  content: string;
}

export type ExportFormat = 'md' | 'html' | 'json';
