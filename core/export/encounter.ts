// An encounter as the versioned JSON export (docs/export-schema.md, "Encounter file"): the frozen machine input, the
// exact stored events and log lines, and the per-round summary. Replaying `events` from `input` gives the state the
// app shows, so the file is both an archive and something an importer can rebuild the fight from.
import type { EncounterInput, EncounterRules, EncounterView, GmEvent, LogLine } from '../encounter/types.ts';
import type { RulesetId } from '../rulesets/types.ts';
import { replayEncounter, type EncounterReplay } from './summary.ts';
import { ENCOUNTER_FORMAT, EXPORT_VERSION, type EncounterExport, type ExportFormat, type ExportLogLine } from './types.ts';

/** One stored event: its seq, the event, the log lines it wrote and what it changed in the roster when stored. */
export interface StoredStep {
  seq: number;
  event: GmEvent;
  lines: readonly LogLine[];
  /** The stored RosterChange as JSON, parsed only by a summary that adds it up (an export with its summary kept does not). */
  rosterJson?: string | undefined;
}

/** An encounter as the database holds it: its row's facts and every event with the log lines it wrote. */
export interface StoredEncounter {
  id: string;
  name: string;
  campaignName: string;
  rulesetId: RulesetId;
  createdAt: string;
  phase: 'setup' | 'running' | 'ended';
  round: number;
  input: EncounterInput;
  events: readonly StoredStep[];
}

export interface EncounterDocument {
  export: EncounterExport;
  /** The view after the last event (its outcome, once ended, names how the fight went). */
  view: EncounterView;
}

/**
 * Builds the export by replaying the stored events; the replay also yields the summary and the final view. The app
 * passes the replay it keeps of the same events (`replayed`), which is the one this would compute.
 */
export function buildEncounterExport(stored: StoredEncounter, rules: EncounterRules, exportedAt: string, replayed?: EncounterReplay): EncounterDocument {
  const { summary, view } = replayed ?? replayEncounter(rules, stored.input, stored.events);
  return {
    view,
    export: {
      format: ENCOUNTER_FORMAT,
      version: EXPORT_VERSION,
      exportedAt,
      rulesetId: stored.rulesetId,
      encounter: {
        id: stored.id,
        name: stored.name,
        campaignName: stored.campaignName,
        createdAt: stored.createdAt,
        phase: stored.phase,
        round: stored.round,
        input: stored.input,
      },
      events: stored.events.map(({ event }) => event),
      log: logOf(stored.events),
      summary,
    },
  };
}

/**
 * Every stored log line in order, each with the sequence number of the event that wrote it. A line read with its
 * seq already (db/encounters.ts readSteps) is taken as it is; any other is copied with it, after its own members.
 */
function logOf(events: StoredEncounter['events']): EncounterExport['log'] {
  const log: EncounterExport['log'] = [];
  for (const { seq, lines } of events) {
    for (const line of lines) log.push((line as Partial<ExportLogLine>).seq === seq ? (line as ExportLogLine) : { ...line, seq });
  }
  return log;
}

export const EXTENSION: Record<ExportFormat, string> = { md: 'md', html: 'html', json: 'json' };
export const MIME = { md: 'text/markdown', html: 'text/html', json: 'application/json' } as const satisfies Record<ExportFormat, string>;

/** Device names Windows refuses as file names, whatever the extension. */
const RESERVED = /^(con|prn|aux|nul|com\d|lpt\d)$/;

/**
 * A file name safe on every system: lower-case letters, digits and single hyphens, at most 60 characters, never
 * empty (`fallback` then) nor a Windows device name, plus the extension.
 */
export function exportFilename(name: string, format: ExportFormat, fallback = 'encounter'): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '');
  const base = slug || fallback;
  return `${RESERVED.test(base) ? `${base}-file` : base}.${EXTENSION[format]}`;
}

/** How the fight stands, in a few words: its outcome once ended. */
export function outcomeText(phase: EncounterExport['encounter']['phase'], round: number, outcome: string | null | undefined): string {
  if (phase === 'setup') return 'in preparation';
  if (phase === 'running') return `still running (round ${round})`;
  return outcome ? outcome : 'ended';
}

/** A round's heading. Round 0 is a real round where a ruleset has one in its summary, and the setup otherwise. */
export function roundTitle(round: number, summary: readonly { round: number }[]): string {
  if (round === 0 && !summary.some((s) => s.round === 0)) return 'Before the fight';
  return `Round ${round}`;
}

/** The log lines grouped by round in order, every round of the summary included even without lines. */
export function logByRound(exported: EncounterExport): { round: number; lines: EncounterExport['log'] }[] {
  const rounds = new Map<number, EncounterExport['log']>();
  for (const round of exported.summary.map((s) => s.round)) rounds.set(round, []);
  for (const line of exported.log) {
    if (!rounds.has(line.round)) rounds.set(line.round, []);
    rounds.get(line.round)!.push(line);
  }
  return [...rounds.entries()].sort(([a], [b]) => a - b).map(([round, lines]) => ({ round, lines }));
}
