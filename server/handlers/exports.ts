// Exports of encounters (Markdown, HTML, JSON) and session recaps (Markdown, HTML), and the per-round summary. All
// read-only: each is replayed from the stored events (EncounterStore.replay keeps the replay of the encounters asked
// for and adds the events appended since), so what leaves the app is derived from the same events as the runner.
import type { HandlerContext } from '../app.ts';
import { GmError } from '../../core/api/contract.ts';
import { RuleRefusal } from '../../core/encounter/kernel.ts';
import type { EncounterReplay } from '../../core/export/summary.ts';
import { buildEncounterExport, exportFilename, MIME, type EncounterDocument, type StoredEncounter } from '../../core/export/encounter.ts';
import { encounterHtml } from '../../core/export/html.ts';
import { encounterMarkdown } from '../../core/export/markdown.ts';
import { sessionHtml, sessionMarkdown, type SessionRecap } from '../../core/export/recap.ts';
import type { ExportFile, ExportFormat, RoundSummary } from '../../core/export/types.ts';
import { campaignName, getCampaign } from '../../db/campaigns.ts';
import type { InjuryRow } from '../../db/consequences.ts';
import * as store from '../../db/encounters.ts';
import * as ledger from '../../db/ledger.ts';
import { rulesFor } from '../encounter-store.ts';
import { rulesetOf } from './campaigns.ts';
import { requireEncounter } from './encounters.ts';

/** The encounter as stored, replayed into its export, summary and final view. */
function documentOf(ctx: HandlerContext, row: store.EncounterListRow): EncounterDocument {
  const stored: StoredEncounter = {
    id: row.id,
    name: row.name,
    campaignName: campaignName(ctx.db, row.campaign_id) ?? '',
    rulesetId: row.ruleset_id,
    createdAt: row.created_at,
    phase: row.phase,
    round: row.round,
    input: store.readInput(ctx.db, row.id),
    events: store.readSteps(ctx.db, row.id),
  };
  return buildEncounterExport(stored, rulesFor(row.ruleset_id), ctx.now(), replayed(ctx, row, stored));
}

/** The encounter's summary and final view (see EncounterStore.replay); `stored` when its events are read already. */
function replayed(ctx: HandlerContext, row: store.EncounterListRow, stored?: StoredEncounter): EncounterReplay {
  try {
    return ctx.encounters.replay(row, stored);
  } catch (error) {
    // Stored events always replayed when they were written; if one no longer does, say which instead of failing blind.
    if (error instanceof RuleRefusal) throw new GmError(`“${row.name}” cannot be exported: ${error.message}`);
    throw error;
  }
}

function encounterFile(ctx: HandlerContext, row: store.EncounterListRow, format: ExportFormat): ExportFile {
  const document = documentOf(ctx, row);
  const facts = { rulesetName: rulesetOf(row).name, outcome: document.view.outcome ?? null };
  const content =
    format === 'json' ? `${JSON.stringify(document.export, null, 2)}\n` : format === 'md' ? encounterMarkdown(document.export, facts) : encounterHtml(document.export, facts);
  return { filename: exportFilename(row.name, format), mime: MIME[format], content };
}

/** Everything one session held, gathered for the recap. */
function recapOf(ctx: HandlerContext, session: ledger.SessionRow): SessionRecap {
  const campaign = getCampaign(ctx.db, session.campaign_id)!;
  const names = new Map((ctx.db.prepare('SELECT id, name FROM characters WHERE campaign_id = ?').all(campaign.id) as { id: string; name: string }[]).map((c) => [c.id, c.name]));
  const encounterRows = store.sessionEncounters(ctx.db, session.id);
  const encounterNames = new Map((ctx.db.prepare('SELECT id, name FROM encounters WHERE campaign_id = ?').all(campaign.id) as { id: string; name: string }[]).map((e) => [e.id, e.name]));
  const injuries = ctx.db.prepare('SELECT * FROM injuries WHERE campaign_id = ? AND (session_gained = ? OR session_healed = ?) ORDER BY created_at, id').all(campaign.id, session.id, session.id) as InjuryRow[];
  // From the index by state, which holds what the recap shows: a walk of the rows read every rest's images to reach
  // their state.
  const entries = ctx.db.prepare(`SELECT day, log_json FROM ledger_entries INDEXED BY ledger_entries_by_state
    WHERE campaign_id = ? AND state = 'done' AND session_id = ? ORDER BY seq`).all(campaign.id, session.id) as Pick<ledger.LedgerEntryRow, 'day' | 'log_json'>[];
  const who = (id: string) => names.get(id) ?? 'A character';
  return {
    campaignName: campaign.name,
    rulesetName: rulesetOf(campaign).name,
    exportedAt: ctx.now(),
    session: { number: session.number, title: session.title, date: session.real_date, notes: session.notes, startDay: session.start_day, endDay: session.end_day },
    encounters: encounterRows.map((row) => {
      const { view, summary } = replayed(ctx, row);
      return { name: row.name, phase: row.phase, round: row.round, outcome: view.outcome ?? null, day: row.day ?? null, summary };
    }),
    injuriesGained: injuries
      .filter((r) => r.session_gained === session.id)
      .map((r) => ({ characterName: who(r.character_id), name: r.name, category: r.category, day: r.day_gained ?? null, encounterName: r.source_encounter_id ? (encounterNames.get(r.source_encounter_id) ?? null) : null })),
    injuriesHealed: injuries.filter((r) => r.session_healed === session.id).map((r) => ({ characterName: who(r.character_id), name: r.name, day: r.day_healed ?? null })),
    ledger: entries.map((e) => ({ day: e.day, text: (JSON.parse(e.log_json) as string[]).join(' ') })),
  };
}

export const exportHandlers = {
  'encounters:summary': (ctx: HandlerContext, input: { id: string }): RoundSummary[] => replayed(ctx, requireEncounter(ctx, input.id)).summary,

  'exports:encounter': (ctx: HandlerContext, input: { id: string; format: ExportFormat }): ExportFile => encounterFile(ctx, requireEncounter(ctx, input.id), input.format),

  'exports:session': (ctx: HandlerContext, input: { id: string; format: 'md' | 'html' }): ExportFile => {
    const session = ledger.getSession(ctx.db, input.id);
    if (!session) throw new GmError('That session does not exist.', 'notFound');
    const recap = recapOf(ctx, session);
    return {
      filename: exportFilename(`session ${session.number} ${session.title}`, input.format, `session-${session.number}`),
      mime: MIME[input.format],
      content: input.format === 'md' ? sessionMarkdown(recap) : sessionHtml(recap),
    };
  },
};
