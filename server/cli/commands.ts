// gmw's subcommands. Everything but `backup` goes through the app's handler table (the same validation, refusals
// and transactions as the desktop app); `backup` copies the database file itself with SQLite's online backup API.
import Database from 'better-sqlite3';
import { existsSync, renameSync, rmSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { isHandlerName, type CampaignSummary, type HandlerInput, type HandlerName, type HandlerResults } from '../../core/api/contract.ts';
import type { ExportFile } from '../../core/export/types.ts';
import { IMPORT_MAX_BYTES, IMPORT_MAX_MB } from '../../core/export/campaign.ts';
import { finishCopy, originOf } from '../../db/backup.ts';
import type { AppService } from '../app.ts';
import { sentenceFor } from '../failure-sentences.ts';
import { DatabaseError, FileError, UsageError, optionValue, type OptionSpec, type ParsedArgs } from './args.ts';
import { fileReason, formatBytes, outputPath, readImportFile, table, writeWhole, type CliIo, type Progress } from './output.ts';
import { RULESETS } from '../../core/rulesets/registry.ts';

/** The app refused the request: its sentence, exit code 1. */
export class RefusedError extends Error {
  override name = 'RefusedError';
}

/** What a command runs with. */
export interface RunContext {
  io: CliIo;
  progress: Progress;
  databasePath: string;
  /** The app on the database, opened on first use. */
  app(): Promise<AppService>;
}

export interface Command {
  name: string;
  /** The arguments after the name, for the usage line. */
  synopsis: string;
  summary: string;
  /** Paragraphs for `gmw <command> --help`. */
  details: string;
  options: readonly OptionSpec[];
  positional: { min: number; max: number; missing: string };
  /** `existing`: only a database that is already there; `create`: a new one where there is none. Never another program's file. */
  database: 'existing' | 'create';
  run(ctx: RunContext, args: ParsedArgs): Promise<void>;
}

/** Runs one handler; a refusal becomes a RefusedError carrying the app's sentence. */
async function request<N extends HandlerName>(ctx: RunContext, name: N, input: HandlerInput<N>): Promise<HandlerResults[N]> {
  const envelope = await (await ctx.app()).dispatch(name, input);
  if ('error' in envelope) throw new RefusedError(envelope.error.message);
  return envelope.result as HandlerResults[N];
}

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;
/** "1 encounter", "3 encounters". */
const count = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;
const flag = (args: ParsedArgs, name: string) => args.options.get(name) === true;

/** Before the work: an `--out` file that exists (without --force) or a missing folder is refused at once. */
function checkOut(ctx: RunContext, args: ParsedArgs): void {
  const out = optionValue(args, 'out');
  if (out !== undefined && out !== '-') outputPath(ctx.io, out, 'export', flag(args, 'force'));
}

/** An export on stdout, or written to `--out` (a file, or a folder that gets the suggested name). */
function deliver(ctx: RunContext, args: ParsedArgs, file: ExportFile): void {
  const out = optionValue(args, 'out');
  if (out === undefined || out === '-') {
    ctx.io.stdout(file.content);
    return;
  }
  const path = outputPath(ctx.io, out, file.filename, flag(args, 'force'));
  ctx.progress.say(`Writing ${path}…`);
  const bytes = writeWhole(path, file.content);
  ctx.io.stderr(`Wrote ${path} (${formatBytes(bytes)}).`);
}

const OUT: OptionSpec = { name: 'out', value: '<file>', help: 'write to this file (or into this folder) instead of stdout' };
const FORCE: OptionSpec = { name: 'force', help: 'replace the file if it exists' };
const JSON_OUT: OptionSpec = { name: 'json', help: 'print JSON instead of readable columns' };

const list: Command = {
  name: 'list',
  synopsis: '[--json] [--archived]',
  summary: 'campaigns with their sessions and encounters (ids, ruleset, phase, round)',
  details:
    'Lists every campaign, its sessions and its encounters in readable columns: the ids the other commands take,\n' +
    'the ruleset, and where each stands (a session playing or ended; an encounter in setup, running or ended,\n' +
    'and its round).',
  options: [JSON_OUT, { name: 'archived', help: 'include archived campaigns' }],
  positional: { min: 0, max: 0, missing: '' },
  database: 'existing',
  async run(ctx, args) {
    const rulesets = new Map((await request(ctx, 'app:info', {})).rulesets.map((r) => [r.id, r.name]));
    const campaigns = [];
    for (const summary of await request(ctx, 'campaigns:list', { includeArchived: flag(args, 'archived') })) {
      const { sessions, encounters } = await request(ctx, 'campaigns:get', { id: summary.id });
      campaigns.push({ ...summary, sessions, encounters });
    }
    if (flag(args, 'json')) {
      ctx.io.stdout(json(campaigns));
      return;
    }
    if (campaigns.length === 0) {
      ctx.io.stderr('No campaigns yet: create one in the app, or run gmw demo.');
      return;
    }
    const sessionName = (s: { number: number; title: string }) => (s.title === `Session ${s.number}` ? s.title : `Session ${s.number}: ${s.title}`);
    const rows = campaigns.flatMap((c) => [
      [c.id, `${c.name}${c.archived ? ' (archived)' : ''}`, rulesets.get(c.rulesetId) ?? c.rulesetId, '', ''],
      ...c.sessions.map((s) => [s.id, `  ${sessionName(s)}`, '', s.endedAt ? 'ended' : 'playing', '']),
      ...c.encounters.map((e) => [e.id, `  ${e.name}`, '', e.phase, e.phase === 'setup' ? '' : String(e.round)]),
    ]);
    ctx.io.stdout(table(['ID', 'NAME', 'RULESET', 'PHASE', 'ROUND'], rows));
  },
};

const exportCommand: Command = {
  name: 'export',
  synopsis: '(--encounter <id> | --session <id>) [--format md|html|json] [--out <file>] [--force]',
  summary: 'an encounter (md, html, json) or a session recap (md, html)',
  details:
    'Exports one encounter as Markdown or HTML (its log and a summary per round) or JSON (its events, which replay\n' +
    'to the same state), or one session as a Markdown or HTML recap. The ids are in gmw list. Printed on stdout\n' +
    'unless --out names a file, or a folder where the export gets its suggested file name.',
  options: [
    { name: 'encounter', value: '<id>', help: 'the encounter to export' },
    { name: 'session', value: '<id>', help: 'the session to recap' },
    { name: 'format', value: '<md|html|json>', help: 'md (default), html, or json (encounters only)' },
    OUT, FORCE,
  ],
  positional: { min: 0, max: 0, missing: '' },
  database: 'existing',
  async run(ctx, args) {
    const encounter = optionValue(args, 'encounter');
    const session = optionValue(args, 'session');
    if ((encounter === undefined) === (session === undefined)) throw new UsageError('Name one --encounter <id> or one --session <id>.');
    const format = optionValue(args, 'format') ?? 'md';
    if (encounter !== undefined) {
      if (format !== 'md' && format !== 'html' && format !== 'json') throw new UsageError('The format is md, html or json.');
      checkOut(ctx, args);
      deliver(ctx, args, await request(ctx, 'exports:encounter', { id: encounter, format }));
    } else {
      if (format !== 'md' && format !== 'html') throw new UsageError('A session recap is md or html.');
      checkOut(ctx, args);
      deliver(ctx, args, await request(ctx, 'exports:session', { id: session!, format }));
    }
  },
};

const exportCampaign: Command = {
  name: 'export-campaign',
  synopsis: '<campaign-id> [--out <file>] [--force]',
  summary: 'a whole campaign as one JSON file (gmw import reads it back)',
  details: 'Exports a campaign with its characters, sessions, encounters (as events), lasting injuries and ledger as\none JSON file. Printed on stdout unless --out names a file or a folder.',
  options: [OUT, FORCE],
  positional: { min: 1, max: 1, missing: 'Name the campaign to export (its id is in gmw list).' },
  database: 'existing',
  async run(ctx, args) {
    checkOut(ctx, args);
    ctx.progress.say('Exporting the campaign…');
    const file = await request(ctx, 'exports:campaign', { id: args.positional[0]! });
    ctx.progress.say(`Exported ${formatBytes(Buffer.byteLength(file.content))}.`);
    deliver(ctx, args, file);
  },
};

const importCommand: Command = {
  name: 'import',
  synopsis: '<file> [--campaign <id>] [--json]',
  summary: 'a campaign file, or an encounter file into a campaign',
  details:
    `Imports a campaign file (from gmw export-campaign or the app) as a new campaign, or with --campaign an encounter\n` +
    `JSON export into that campaign. Every encounter is replayed through its ruleset before anything is saved;\n` +
    `a file the app cannot take changes nothing. Files over ${IMPORT_MAX_MB} MB are refused before they are read.\n` +
    'Prints the new id on stdout.',
  options: [{ name: 'campaign', value: '<id>', help: 'import an encounter file into this campaign' }, JSON_OUT],
  positional: { min: 1, max: 1, missing: 'Name the file to import.' },
  database: 'create',
  async run(ctx, args) {
    const file = readImportFile(ctx.io, args.positional[0]!, IMPORT_MAX_BYTES, `${IMPORT_MAX_MB} MB`);
    ctx.progress.say(`Read ${file.path} (${formatBytes(file.bytes)}).`);
    const campaignId = optionValue(args, 'campaign');
    if (campaignId !== undefined) {
      ctx.progress.say('Importing… replaying the encounter.');
      const encounter = await request(ctx, 'imports:encounter', { campaignId, content: file.text });
      ctx.progress.say(`Importing… ${count(encounter.eventCount, 'event')} replayed.`);
      ctx.io.stdout(flag(args, 'json') ? json(encounter) : `${encounter.id}\n`);
      ctx.io.stderr(`Imported the encounter “${encounter.name}” (${count(encounter.eventCount, 'event')}, ${encounter.phase}${encounter.phase === 'setup' ? '' : `, round ${encounter.round}`}).`);
      return;
    }
    ctx.progress.say('Importing… replaying every encounter.');
    const campaign = await request(ctx, 'imports:campaign', { content: file.text });
    ctx.progress.say(`Importing… ${count(campaign.encounterCount, 'encounter')} replayed.`);
    ctx.io.stdout(flag(args, 'json') ? json(campaign) : `${campaign.id}\n`);
    ctx.io.stderr(`Imported the campaign “${campaign.name}” (${count(campaign.characterCount, 'character')}, ${count(campaign.encounterCount, 'encounter')}).`);
  },
};

const demo: Command = {
  name: 'demo',
  synopsis: '[--json]',
  summary: 'add the demo campaigns (one per ruleset, each with a finished fight)',
  details: 'Adds one sample campaign per ruleset, each with a party, NPC templates, a finished first-session fight with\nits log, and the recovery after it. Running it again adds them again, named (2); nothing is overwritten.',
  options: [JSON_OUT],
  positional: { min: 0, max: 0, missing: '' },
  database: 'create',
  async run(ctx, args) {
    ctx.progress.say(`Creating the demo campaigns: playing ${count(RULESETS.length, 'fight')} through their events…`);
    const created = await request(ctx, 'campaigns:demo', {});
    const rulesets = new Map((await request(ctx, 'app:info', {})).rulesets.map((r) => [r.id, r.name]));
    ctx.io.stdout(flag(args, 'json') ? json(created) : table(['ID', 'NAME', 'RULESET'], created.map((c: CampaignSummary) => [c.id, c.name, rulesets.get(c.rulesetId) ?? c.rulesetId])));
    ctx.io.stderr(`Created ${created.length} demo campaigns.`);
  },
};

const stamp = (date: Date) => date.toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');

const backup: Command = {
  name: 'backup',
  synopsis: '<file> [--force]',
  summary: 'a verified copy of the database, made while it may be in use',
  details:
    'Copies the database page by page with SQLite\'s online backup API (safe while the app is open), checks the\n' +
    'copy\'s integrity, and only then puts it at <file> (or, for a folder, a dated file inside it). An existing\n' +
    'file is kept unless --force. Prints the copy\'s path on stdout.',
  options: [FORCE],
  positional: { min: 1, max: 1, missing: 'Name the file for the backup.' },
  database: 'existing',
  async run(ctx, args) {
    const source = resolve(ctx.io.cwd, ctx.databasePath);
    if (resolve(ctx.io.cwd, args.positional[0]!) === source) throw new FileError('That is the database itself; choose another file for the backup.');
    const target = outputPath(ctx.io, args.positional[0]!, `gm-workstation-${stamp(new Date())}.sqlite`, flag(args, 'force'));
    const db = openExistingDatabase(source);
    const partial = `${target}.partial`;
    try {
      const campaigns = (db.prepare('SELECT count(*) AS n FROM campaigns').get() as { n: number }).n;
      rmSync(partial, { force: true });
      let shown = -1;
      const percent = (done: number) => {
        if (done !== shown) ctx.progress.say(`Backing up… ${done}%`);
        shown = done;
      };
      try {
        await db.backup(partial, {
          progress: ({ totalPages, remainingPages }) => {
            percent(Math.floor((100 * (totalPages - remainingPages)) / Math.max(totalPages, 1)));
            return 256;
          },
        });
        percent(100);
      } catch (error) {
        throw new FileError(`Cannot write ${target}: ${fileReason(error)}.`);
      }
      ctx.progress.say('Checking the copy…');
      if (!finishCopy(Database, partial, undefined, originOf(source, new Date(), 'gmw'))) throw new FileError('The copy failed its integrity check and was discarded.');
      try {
        renameSync(partial, target);
      } catch (error) {
        throw new FileError(`Cannot write ${target}: ${fileReason(error)}.`);
      }
      ctx.io.stdout(`${target}\n`);
      ctx.io.stderr(`Backed up ${source} to ${target} (${formatBytes(statSync(target).size)}, ${count(campaigns, 'campaign')}, integrity check passed).`);
    } finally {
      db.close();
      for (const leftover of [partial, `${partial}-wal`, `${partial}-shm`]) rmSync(leftover, { force: true });
    }
  },
};

/**
 * An existing GM Workstation database, opened read-only: what a backup copies without changing (or migrating) it,
 * and what reading commands check before the app opens the file, so another program's SQLite file is left alone.
 */
export function openExistingDatabase(path: string): Database.Database {
  if (!existsSync(path)) throw new DatabaseError(`There is no database at ${path} yet (choose one with --db).`);
  let db: Database.Database | undefined;
  try {
    db = new Database(path, { readonly: true, fileMustExist: true });
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'campaigns'").all();
    if (tables.length === 0) throw new DatabaseError(`${path} is not a GM Workstation database.`);
    return db;
  } catch (error) {
    db?.close();
    if (error instanceof DatabaseError) throw error;
    throw new DatabaseError(sentenceFor(error, path) ?? `Cannot open the database at ${path}: ${fileReason(error)}.`);
  }
}

export const COMMANDS: readonly Command[] = [list, exportCommand, exportCampaign, importCommand, backup, demo];

/** `gmw <area:verb> ['<json input>']`: any handler, for scripting. */
export const rawRequest = (name: string): Command => ({
  name,
  synopsis: "['<json input>']",
  summary: 'any request of the app',
  details: `Runs the request ${name} with the JSON input (default {}) and prints its result as JSON.`,
  options: [],
  positional: { min: 0, max: 1, missing: '' },
  database: 'create',
  async run(ctx, args) {
    if (!isHandlerName(name)) throw new UsageError(`Unknown request “${name.slice(0, 60)}” (gmw --help lists them).`);
    let input: unknown = {};
    if (args.positional[0] !== undefined) {
      try {
        input = JSON.parse(args.positional[0]);
      } catch {
        throw new UsageError('The input is not valid JSON.');
      }
    }
    const envelope = await (await ctx.app()).dispatch(name, input);
    if ('error' in envelope) throw new RefusedError(envelope.error.message);
    ctx.io.stdout(json(envelope.result));
  },
});
