// gmw against temporary databases: help, every exit code, list, demo, backup, import and export passing the
// app's answers through, progress only where asked for; then the built dist/cli/gmw.cjs as a script would run it.
import Database from 'better-sqlite3';
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, readdirSync, rmSync, statSync, truncateSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { HANDLER_NAMES } from '../core/api/names.ts';
import { IMPORT_MAX_BYTES, IMPORT_MAX_MB } from '../core/export/campaign.ts';
import { tempDir, type TempDir } from '../db/testing/temp-db.ts';
import { openApp } from './app.ts';
import { main } from './cli/main.ts';
import { RULESETS } from '../core/rulesets/registry.ts';

let dir: TempDir;
let db: string;
beforeEach(() => {
  dir = tempDir('gmw-cli-');
  db = dir.file('table.sqlite');
});
afterEach(() => dir.remove());

interface Run {
  code: number;
  stdout: string;
  stderr: string;
  /** stderr's lines. */
  lines: string[];
}

/** Runs gmw in-process on the test's database (unless the args name another) with captured streams. */
async function gmw(args: string[], options: { tty?: boolean; withDb?: boolean } = {}): Promise<Run> {
  let stdout = '';
  const lines: string[] = [];
  const argv = options.withDb === false ? args : [...args, '--db', db];
  const code = await main(argv, {
    stdout: (text) => void (stdout += text),
    stderr: (line) => void lines.push(line),
    stderrIsTTY: options.tty ?? false,
    env: { XDG_DATA_HOME: join(dir.path, 'xdg') },
    cwd: dir.path,
  });
  return { code, stdout, stderr: lines.join('\n'), lines };
}

/** The app's own answer to a request on the test's database, to compare with what gmw passes through. */
async function direct(name: string, input: unknown) {
  const app = openApp({ databasePath: db, transport: 'cli', version: 'test' });
  try {
    return await app.dispatch(name, input);
  } finally {
    app.close();
  }
}

type Listed = { id: string; name: string; rulesetId: string; sessions: { id: string }[]; encounters: { id: string; phase: string; round: number }[] }[];
async function listed(): Promise<Listed> {
  const run = await gmw(['list', '--json']);
  expect(run.code).toBe(0);
  return JSON.parse(run.stdout) as Listed;
}

/** Exports carry the moment they were made; two exports of the same thing differ only there. */
const timeless = (text: string) => text.replace(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z/g, '<time>');

describe('gmw help', () => {
  it('lists every command, the exit codes and every request, on stdout with exit 0', async () => {
    const run = await gmw(['--help'], { withDb: false });
    expect(run).toMatchObject({ code: 0, stderr: '' });
    for (const command of ['list', 'export', 'export-campaign <campaign-id>', 'import <file>', 'backup <file>', 'demo', '<area:verb>']) {
      expect(run.stdout).toMatch(new RegExp(`^  ${command.replace(/[<>]/g, '.')} +\\S`, 'm'));
    }
    expect(run.stdout).toContain('Exit codes:\n  0  done\n  1  refused by the app (its reason is on stderr)\n  2  usage error');
    expect(run.stdout).toMatch(/^ {2}3 {2}file problem/m);
    expect(run.stdout).toMatch(/^ {2}4 {2}the database cannot be opened/m);
    for (const name of HANDLER_NAMES) expect(run.stdout).toContain(` ${name}`);
    expect(run.stdout).toContain(join(dir.path, 'xdg', 'gm-workstation', 'gm-workstation.sqlite'));
    expect((await gmw(['help'], { withDb: false })).stdout).toBe(run.stdout);
  });

  it('has a --help for each command with its options, the global ones and the exit codes', async () => {
    for (const [args, usage, option] of [
      [['list', '--help'], 'Usage: gmw list [--json] [--archived]', '--archived'],
      [['export', '-h'], 'Usage: gmw export (--encounter <id> | --session <id>)', '--format <md|html|json>'],
      [['export-campaign', '--help'], 'Usage: gmw export-campaign <campaign-id>', '--out <file>'],
      [['import', '--help'], 'Usage: gmw import <file>', '--campaign <id>'],
      [['help', 'backup'], 'Usage: gmw backup <file> [--force]', '--force'],
      [['demo', '--help'], 'Usage: gmw demo', '--json'],
      [['campaigns:list', '--help'], "Usage: gmw campaigns:list ['<json input>']", '--db <path>'],
    ] as const) {
      const run = await gmw([...args], { withDb: false });
      expect(run.code, args.join(' ')).toBe(0);
      expect(run.stdout.startsWith(usage), args.join(' ')).toBe(true);
      expect(run.stdout).toContain(`  ${option}`);
      expect(run.stdout).toContain('--progress');
      expect(run.stdout).toContain('Exit codes:');
    }
    // Help never opens the database.
    expect(existsSync(db)).toBe(false);
  });

  it('prints its version', async () => {
    expect(await gmw(['--version'], { withDb: false })).toMatchObject({ code: 0, stdout: 'dev\n' });
  });
});

describe('usage errors: one line, then the usage, exit 2, and the database untouched', () => {
  it.each([
    [[], 'Name a command.', 'Usage: gmw <command>'],
    [['frobnicate'], 'Unknown command “frobnicate”.', 'Usage: gmw <command>'],
    [['list', '--jsn'], 'gmw list has no option --jsn.', 'Usage: gmw list'],
    [['list', '--json=yes'], '--json takes no value.', 'Usage: gmw list'],
    [['list', 'extra'], 'gmw list takes no arguments; “extra” is one too many.', 'Usage: gmw list'],
    [['list', '--json', '--json'], '--json is given twice.', 'Usage: gmw list'],
    [['export', '--encounter'], '--encounter needs <id>.', 'Usage: gmw export'],
    [['export', '--encounter', 'e1', '--session', 's1'], 'Name one --encounter <id> or one --session <id>.', 'Usage: gmw export'],
    [['export', '--format', 'md'], 'Name one --encounter <id> or one --session <id>.', 'Usage: gmw export'],
    [['export', '--encounter', 'e1', '--format', 'pdf'], 'The format is md, html or json.', 'Usage: gmw export'],
    [['export', '--session', 's1', '--format', 'json'], 'A session recap is md or html.', 'Usage: gmw export'],
    [['export-campaign'], 'Name the campaign to export (its id is in gmw list).', 'Usage: gmw export-campaign'],
    [['import'], 'Name the file to import.', 'Usage: gmw import'],
    [['import', 'a.json', 'b.json'], 'gmw import takes one argument; “b.json” is one too many.', 'Usage: gmw import'],
    [['backup'], 'Name the file for the backup.', 'Usage: gmw backup'],
    [['nope:nothing'], 'Unknown request “nope:nothing” (gmw --help lists them).', 'Usage: gmw nope:nothing'],
    [['campaigns:list', '{oops'], 'The input is not valid JSON.', 'Usage: gmw campaigns:list'],
  ])('gmw %j', async (args, sentence, usage) => {
    const run = await gmw(args);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.lines[0]).toBe(sentence);
    expect(run.lines[1]).toBe('');
    expect(run.lines[2]!.startsWith(usage) || run.lines[2]!.startsWith('gmw dev:')).toBe(true);
    expect(run.stderr).toContain(usage);
    expect(existsSync(db)).toBe(false);
  });

  it('a value for --db is required', async () => {
    const run = await gmw(['list', '--db'], { withDb: false });
    expect(run.code).toBe(2);
    expect(run.lines[0]).toBe('--db needs <path>.');
  });
});

describe('the database cannot be opened: exit 4', () => {
  it('refuses to read a database that does not exist rather than creating an empty one', async () => {
    for (const args of [['list'], ['export', '--encounter', 'e1'], ['export-campaign', 'c1'], ['backup', 'copy.sqlite']]) {
      const run = await gmw(args);
      expect(run.code, args[0]).toBe(4);
      expect(run.stderr).toBe(`There is no database at ${db} yet (choose one with --db).`);
      expect(run.stdout).toBe('');
    }
    expect(existsSync(db)).toBe(false);
  });

  it('says so in one sentence when the file is not a database, and leaves it alone', async () => {
    writeFileSync(db, 'these are my session notes, not a database\n'.repeat(200));
    const before = readFileSync(db, 'utf8');
    for (const args of [['list'], ['demo'], ['campaigns:list']]) {
      const run = await gmw(args);
      expect(run.code, args[0]).toBe(4);
      expect(run.lines).toEqual([`Cannot open the database at ${db}: file is not a database.`]);
    }
    const backup = await gmw(['backup', 'copy.sqlite']);
    expect(backup.code).toBe(4);
    expect(backup.stderr).toMatch(new RegExp(`^Cannot open the database at ${db.replace(/[.]/g, '\\.')}: `));
    expect(readFileSync(db, 'utf8')).toBe(before);
    expect(existsSync(join(dir.path, 'copy.sqlite'))).toBe(false);
  });

  it('leaves another program\'s SQLite file alone instead of turning it into a campaign database', async () => {
    const other = new Database(db);
    other.exec("CREATE TABLE recipes (name TEXT); INSERT INTO recipes VALUES ('stew')");
    other.close();
    for (const args of [['list'], ['export', '--encounter', 'e1'], ['export-campaign', 'c1'], ['backup', 'copy.sqlite'], ['demo'], ['campaigns:list']]) {
      expect(await gmw(args), args[0]).toMatchObject({ code: 4, stdout: '', lines: [`${db} is not a GM Workstation database.`] });
    }
    const after = new Database(db, { readonly: true });
    expect(after.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all()).toEqual([{ name: 'recipes' }]);
    after.close();
  });

  it('a folder is not a database', async () => {
    mkdirSync(join(dir.path, 'folder'));
    const run = await gmw(['campaigns:list', '--db', join(dir.path, 'folder')], { withDb: false });
    expect(run.code).toBe(4);
    expect(run.stderr).toMatch(/^Cannot open the database at .*folder: .+\.$/);
  });
});

describe('a refused database: the sentence web mode says, and the folder exactly as it was', () => {
  /** Every file in the test's folder (and its backups folder), with its bytes' hash. */
  const folder = () =>
    readdirSync(dir.path, { recursive: true, encoding: 'utf8' }).sort().map((name) => {
      const path = join(dir.path, name);
      return statSync(path).isFile() ? `${name} ${createHash('sha256').update(readFileSync(path)).digest('hex')}` : `${name}/`;
    });

  /** A database the desktop app or web mode has used (its marker beside it) with one good backup. */
  async function usedDatabase(): Promise<string> {
    const app = openApp({ databasePath: db, transport: 'web', version: 'test' });
    try {
      expect(await app.dispatch('campaigns:demo', {})).toHaveProperty('result');
      const made = await app.dispatch('backups:create', {});
      return (made as { result: { name: string } }).result.name;
    } finally {
      app.close();
    }
  }

  it('words a damaged database as web mode does, with the backup to restore, and leaves no -wal or -shm', async () => {
    const backup = await usedDatabase();
    const fd = openSync(db, 'r+');
    writeSync(fd, Buffer.alloc(3 * 4096, 0xff), 0, 3 * 4096, 8192); // broken pages; the schema page still reads
    closeSync(fd);
    const before = folder();
    for (const args of [['list'], ['campaigns:list'], ['campaigns:create', '{"name":"X","rulesetId":"enigma"}']]) {
      const run = await gmw(args);
      expect(run.code, args[0]).toBe(4);
      expect(run.lines, args[0]).toEqual([
        `The campaign database file is damaged: its integrity check found broken pages (${db}); the newest good backup is ${backup} in ${join(dir.path, 'backups')}; start the app to restore it.`,
      ]);
      expect(folder(), args[0]).toEqual(before);
    }
  });

  it('words a missing database the marker says was here as web mode does, and creates nothing', async () => {
    const backup = await usedDatabase();
    rmSync(db);
    const before = folder();
    for (const args of [['list'], ['campaigns:create', '{"name":"X","rulesetId":"enigma"}']]) {
      const run = await gmw(args);
      expect(run.code, args[0]).toBe(4);
      expect(run.lines, args[0]).toEqual([
        `The campaign database is missing: it was here before, but the file is gone (${db}); the newest good backup is ${backup} in ${join(dir.path, 'backups')}; start the app to restore it.`,
      ]);
      expect(folder(), args[0]).toEqual(before);
    }
  });

  it('says a newer schema, a lock holder and a file not ours in their own sentence, changing nothing beside them', async () => {
    // A newer GM Workstation's database.
    await gmw(['demo']);
    const newer = new Database(db);
    newer.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (999, ?, ?)').run('future', 'x');
    newer.close();
    let before = folder();
    for (const args of [['list'], ['campaigns:create', '{"name":"X","rulesetId":"enigma"}']]) {
      const run = await gmw(args);
      expect(run.code, args[0]).toBe(4);
      expect(run.lines[0], args[0]).toMatch(/^This database was written by a newer GM Workstation \(schema 999; this version knows \d+\)\. Update the app to open it\.$/);
      expect(folder(), args[0]).toEqual(before);
    }
    rmSync(db);

    // Held by another GM Workstation (web mode, in this process).
    await gmw(['demo']);
    const holder = openApp({ databasePath: db, transport: 'web', version: 'test', lock: 'web' });
    try {
      before = folder().filter((line) => !line.startsWith('table.sqlite.opened'));
      for (const args of [['list'], ['campaigns:create', '{"name":"X","rulesetId":"enigma"}']]) {
        const run = await gmw(args);
        expect(run, args[0]).toMatchObject({ code: 4, lines: [`Another GM Workstation (web mode, pid ${process.pid}) is using this database; close it first.`] });
        expect(folder().filter((line) => !line.startsWith('table.sqlite.opened')), args[0]).toEqual(before);
      }
    } finally {
      holder.close();
    }

    // Another program's SQLite file.
    const notes = join(dir.path, 'notes.sqlite');
    const other = new Database(notes);
    other.exec("PRAGMA journal_mode = wal; CREATE TABLE notes (text TEXT); INSERT INTO notes VALUES ('buy dice')");
    other.close();
    before = folder();
    for (const args of [['list'], ['campaigns:list']]) {
      const run = await gmw([...args, '--db', notes], { withDb: false });
      expect(run, args[0]).toMatchObject({ code: 4, lines: [`${notes} is not a GM Workstation database.`] });
      expect(folder(), args[0]).toEqual(before);
    }
  });
});

describe('gmw demo and gmw list', () => {
  it('says there is nothing yet on an empty database, with exit 0 and nothing on stdout', async () => {
    expect((await gmw(['campaigns:list'])).code).toBe(0);
    expect(await gmw(['list'])).toMatchObject({ code: 0, stdout: '', stderr: 'No campaigns yet: create one in the app, or run gmw demo.' });
    expect(JSON.parse((await gmw(['list', '--json'])).stdout)).toEqual([]);
  });

  it('creates the demo (creating the database) and lists campaigns, sessions and encounters in columns', async () => {
    const demo = await gmw(['demo']);
    expect(demo.code).toBe(0);
    expect(demo.lines).toEqual([`Created a new database at ${db}.`, `Created ${RULESETS.length} demo campaigns.`]);
    const demoRows = demo.stdout.trimEnd().split('\n');
    expect(demoRows[0]).toMatch(/^ID +NAME +RULESET$/);
    expect(demoRows).toHaveLength(1 + RULESETS.length);
    expect(demoRows.slice(1, 6).map((r) => r.split(/ {2,}/).slice(1))).toEqual([
      ['Demo — Enigma: Nexus Nights', 'Enigma'], ['Demo — Teams: The Iron Pact', 'Teams'], ['Demo — Factions: Murdham Nights', 'Factions'],
      ['Demo — Cairn-Errant: The Blackwood Barrow', 'Cairn-Errant'], ['Demo — Thrum: Hollow Roads', 'Thrum'],
    ]);

    const campaigns = await listed();
    expect(campaigns).toHaveLength(RULESETS.length);
    const run = await gmw(['list']);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    const rows = run.stdout.trimEnd().split('\n');
    expect(rows[0]).toMatch(/^ID +NAME +RULESET +PHASE +ROUND$/);
    // Every row's columns start where the header's do.
    const columns = ['NAME', 'RULESET', 'PHASE'].map((h) => rows[0]!.indexOf(h));
    const enigma = campaigns.find((c) => c.rulesetId === 'enigma')!;
    const at = rows.findIndex((r) => r.startsWith(enigma.id));
    expect(rows[at]!.slice(columns[0], columns[1]).trim()).toBe('Demo — Enigma: Nexus Nights');
    expect(rows[at]!.slice(columns[1], columns[2]).trim()).toBe('Enigma');
    expect(rows[at + 1]).toMatch(new RegExp(`^${enigma.sessions[0]!.id} +Session 1: The Flooded Archive +ended$`));
    expect(rows[at + 2]).toMatch(new RegExp(`^${enigma.encounters[0]!.id} +Ambush in the stacks +ended +2$`));
    expect(rows.slice(1).map((r) => r.slice(0, 36))).toEqual(campaigns.flatMap((c) => [c.id, ...c.sessions.map((s) => s.id), ...c.encounters.map((e) => e.id)]));

    // Again: as many more, never overwriting.
    const again = JSON.parse((await gmw(['demo', '--json'])).stdout) as { name: string }[];
    expect(again.map((c) => c.name)).toContain('Demo — Thrum: Hollow Roads (2)');
    expect(await listed()).toHaveLength(2 * RULESETS.length);
  });

  it('lists archived campaigns only when asked', async () => {
    const created = JSON.parse((await gmw(['campaigns:create', '{"name":"Old vault","rulesetId":"enigma"}'])).stdout) as { id: string };
    await gmw(['campaigns:archive', JSON.stringify({ id: created.id, archived: true })]);
    expect((await gmw(['list'])).stderr).toMatch(/^No campaigns yet/);
    expect((await gmw(['list', '--archived'])).stdout).toMatch(new RegExp(`^${created.id} +Old vault \\(archived\\) +Enigma$`, 'm'));
  });
});

describe('the raw form gmw <area:verb> <json>', () => {
  it('runs any request and prints its result as JSON; a refusal is the app\'s sentence and exit 1', async () => {
    const created = await gmw(['campaigns:create', '{"name":"The Drowned Vault","rulesetId":"enigma"}']);
    expect(created.code).toBe(0);
    expect(JSON.parse(created.stdout)).toMatchObject({ name: 'The Drowned Vault', rulesetId: 'enigma' });
    const refused = await gmw(['campaigns:get', '{"id":"nobody"}']);
    expect(refused).toMatchObject({ code: 1, stdout: '', lines: ['That campaign does not exist (it may have been removed).'] });
    const invalid = await gmw(['campaigns:create', '{"name":"","rulesetId":"enigma"}']);
    expect(invalid).toMatchObject({ code: 1, stdout: '', lines: ['A name cannot be empty.'] });
    // Options may come before the command.
    const listed = await main(['--db', db, 'campaigns:list'], { stdout: () => {}, stderr: () => {}, stderrIsTTY: false, env: {}, cwd: dir.path });
    expect(listed).toBe(0);
  });
});

describe('gmw backup', () => {
  it('makes a verified copy that opens and holds the campaigns, while the app has the database open', async () => {
    await gmw(['demo']);
    // A live connection with a recent write still in the WAL: the online backup must include it.
    const live = openApp({ databasePath: db, transport: 'cli', version: 'test' });
    try {
      await live.dispatch('campaigns:create', { name: 'Written just now', rulesetId: 'thrum' });
      const run = await gmw(['backup', 'copy.sqlite']);
      const copy = join(dir.path, 'copy.sqlite');
      expect(run).toMatchObject({ code: 0, stdout: `${copy}\n` });
      expect(run.lines).toEqual([expect.stringMatching(new RegExp(`^Backed up ${db} to ${copy} \\(\\d+\\.\\d KB, ${RULESETS.length + 1} campaigns, integrity check passed\\)\\.$`))]);
    } finally {
      live.close();
    }
    const copied = openApp({ databasePath: join(dir.path, 'copy.sqlite'), transport: 'cli', version: 'test' });
    try {
      const campaigns = await copied.dispatch('campaigns:list', {});
      expect('result' in campaigns && (campaigns.result as { name: string }[]).map((c) => c.name).sort()).toEqual([
        'Demo — Any system: The Old Mine (D&D 5e)', 'Demo — Cairn-Errant: The Blackwood Barrow', 'Demo — Enigma: Nexus Nights', 'Demo — Factions: Murdham Nights',
        'Demo — Teams: The Iron Pact', 'Demo — Thrum: Hollow Roads', 'Written just now',
      ]);
    } finally {
      copied.close();
    }
    // One self-contained file: nothing half-written or left beside it.
    expect(readdirSync(dir.path).filter((f) => f.startsWith('copy'))).toEqual(['copy.sqlite']);
  });

  it('keeps an existing file unless --force, and never writes over the database itself', async () => {
    await gmw(['campaigns:create', '{"name":"One","rulesetId":"enigma"}']);
    const copy = join(dir.path, 'copy.sqlite');
    writeFileSync(copy, 'precious');
    expect(await gmw(['backup', 'copy.sqlite'])).toMatchObject({ code: 3, stdout: '', lines: [`${copy} already exists; add --force to replace it.`] });
    expect(readFileSync(copy, 'utf8')).toBe('precious');
    expect((await gmw(['backup', 'copy.sqlite', '--force'])).code).toBe(0);
    expect(statSync(copy).size).toBeGreaterThan(8);
    for (const target of [db, 'table.sqlite']) {
      expect(await gmw(['backup', target, '--force'])).toMatchObject({ code: 3, lines: ['That is the database itself; choose another file for the backup.'] });
    }
  });

  it('puts a dated copy into a folder, and refuses a folder that does not exist', async () => {
    await gmw(['campaigns:create', '{"name":"One","rulesetId":"enigma"}']);
    mkdirSync(join(dir.path, 'backups'));
    const run = await gmw(['backup', 'backups']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/backups\/gm-workstation-\d{8}T\d{6}Z\.sqlite\n$/);
    const missing = await gmw(['backup', join('nowhere', 'copy.sqlite')]);
    expect(missing).toMatchObject({ code: 3, lines: [`Cannot write ${join(dir.path, 'nowhere', 'copy.sqlite')}: the folder ${join(dir.path, 'nowhere')} does not exist.`] });
  });
});

describe('progress on long work', () => {
  it('goes to stderr only with --progress or on a terminal, never to stdout', async () => {
    const quiet = await gmw(['demo']);
    expect(quiet.lines).toEqual([`Created a new database at ${db}.`, `Created ${RULESETS.length} demo campaigns.`]);
    const asked = await gmw(['demo', '--progress']);
    expect(asked.lines).toEqual([`Creating the demo campaigns: playing ${RULESETS.length} fights through their events…`, `Created ${RULESETS.length} demo campaigns.`]);
    expect(asked.stdout).not.toContain('playing');
    const terminal = await gmw(['backup', 'copy.sqlite'], { tty: true });
    expect(terminal.lines).toEqual([...terminal.lines.slice(0, -3), 'Backing up… 100%', 'Checking the copy…', expect.stringMatching(/^Backed up /)]);
    expect(terminal.stdout).toBe(`${join(dir.path, 'copy.sqlite')}\n`);
    const piped = await gmw(['backup', 'copy2.sqlite']);
    expect(piped.lines).toEqual([expect.stringMatching(/^Backed up /)]);
  });
});

describe('gmw export and export-campaign pass the app\'s answer through', () => {
  it('prints an encounter export on stdout, or exits 1 with the app\'s sentence', async () => {
    await gmw(['demo']);
    const encounter = (await listed()).find((c) => c.rulesetId === 'teams')!.encounters[0]!;
    for (const format of ['md', 'html', 'json'] as const) {
      const expected = await direct('exports:encounter', { id: encounter.id, format });
      const run = await gmw(['export', '--encounter', encounter.id, '--format', format]);
      if ('error' in expected) {
        expect(run).toMatchObject({ code: 1, stdout: '', lines: [expected.error.message] });
      } else {
        expect(run).toMatchObject({ code: 0, stderr: '' });
        expect(timeless(run.stdout)).toBe(timeless((expected.result as { content: string }).content));
      }
    }
    const unknown = await direct('exports:encounter', { id: 'nobody', format: 'md' });
    expect('error' in unknown).toBe(true);
    expect(await gmw(['export', '--encounter', 'nobody'])).toMatchObject({ code: 1, stdout: '', lines: ['error' in unknown ? unknown.error.message : ''] });
  });

  it('writes to --out (a file, or a folder with the suggested name) and keeps existing files unless --force', async () => {
    await gmw(['demo']);
    const campaign = (await listed()).find((c) => c.rulesetId === 'enigma')!;
    const expected = await direct('exports:session', { id: campaign.sessions[0]!.id, format: 'html' });
    const run = await gmw(['export', '--session', campaign.sessions[0]!.id, '--format', 'html', '--out', 'recap.html']);
    if ('error' in expected) {
      expect(run).toMatchObject({ code: 1, lines: [expected.error.message] });
      expect(existsSync(join(dir.path, 'recap.html'))).toBe(false);
      return;
    }
    const file = expected.result as { filename: string; content: string };
    expect(run).toMatchObject({ code: 0, stdout: '', lines: [expect.stringMatching(/^Wrote .*recap\.html \(\d+\.\d KB\)\.$/)] });
    expect(timeless(readFileSync(join(dir.path, 'recap.html'), 'utf8'))).toBe(timeless(file.content));
    expect(await gmw(['export', '--session', campaign.sessions[0]!.id, '--format', 'html', '--out', 'recap.html'])).toMatchObject({ code: 3, lines: [`${join(dir.path, 'recap.html')} already exists; add --force to replace it.`] });
    expect((await gmw(['export', '--session', campaign.sessions[0]!.id, '--format', 'html', '--out', 'recap.html', '--force'])).code).toBe(0);
    mkdirSync(join(dir.path, 'exports'));
    expect((await gmw(['export-campaign', campaign.id, '--out', 'exports'])).code).toBe(0);
    expect(readdirSync(join(dir.path, 'exports'))).toHaveLength(1);
  });

  it('exports a whole campaign, or passes the refusal through', async () => {
    await gmw(['demo']);
    const campaign = (await listed()).find((c) => c.rulesetId === 'factions')!;
    const expected = await direct('exports:campaign', { id: campaign.id });
    const run = await gmw(['export-campaign', campaign.id]);
    if ('error' in expected) expect(run).toMatchObject({ code: 1, lines: [expected.error.message] });
    else expect(timeless(run.stdout)).toBe(timeless((expected.result as { content: string }).content));
    const missing = await direct('exports:campaign', { id: 'nobody' });
    expect(await gmw(['export-campaign', 'nobody'])).toMatchObject({ code: 1, stdout: '', lines: ['error' in missing ? missing.error.message : ''] });
  });
});

describe('gmw import', () => {
  it('refuses files it cannot read, and a file over the size limit from its size alone, with exit 3', async () => {
    expect(await gmw(['import', 'missing.json'])).toMatchObject({ code: 3, lines: [`Cannot read ${join(dir.path, 'missing.json')}: no such file or folder.`] });
    mkdirSync(join(dir.path, 'folder.json'));
    expect(await gmw(['import', 'folder.json'])).toMatchObject({ code: 3, lines: [`${join(dir.path, 'folder.json')} is a folder, not a file.`] });
    const huge = join(dir.path, 'huge.json');
    writeFileSync(huge, '');
    truncateSync(huge, IMPORT_MAX_BYTES + 1);
    expect(await gmw(['import', 'huge.json'])).toMatchObject({ code: 3, stdout: '', lines: [`${huge} is larger than ${IMPORT_MAX_MB} MB, the most this app imports.`] });
  });

  it('passes the importer\'s verdict through: the new id on stdout, or its sentence with exit 1', async () => {
    writeFileSync(join(dir.path, 'notes.json'), '{"not":"an export"}');
    const refusal = await direct('imports:campaign', { content: '{"not":"an export"}' });
    expect('error' in refusal).toBe(true);
    expect(await gmw(['import', 'notes.json'])).toMatchObject({ code: 1, stdout: '', lines: ['error' in refusal ? refusal.error.message : ''] });

    await gmw(['demo']);
    const campaign = (await listed()).find((c) => c.rulesetId === 'cairn-errant')!;
    const exported = await gmw(['export-campaign', campaign.id, '--out', 'barrow.json']);
    if (exported.code !== 0) return; // the export is refused on this build; its pass-through is tested above
    const imported = await gmw(['import', 'barrow.json', '--progress']);
    expect(imported.code).toBe(0);
    const id = imported.stdout.trim();
    expect((await listed()).map((c) => c.id)).toContain(id);
    expect(imported.lines).toEqual([
      expect.stringMatching(/^Read .*barrow\.json \(\d+\.\d KB\)\.$/), 'Importing… replaying every encounter.', 'Importing… 1 encounter replayed.',
      'Imported the campaign “Demo — Cairn-Errant: The Blackwood Barrow” (3 characters, 1 encounter).',
    ]);

    // One encounter into a campaign of the same ruleset.
    expect((await gmw(['export', '--encounter', campaign.encounters[0]!.id, '--format', 'json', '--out', 'barrow-fight.json'])).code).toBe(0);
    const intoCampaign = await gmw(['import', 'barrow-fight.json', '--campaign', campaign.id, '--json']);
    expect(intoCampaign.code).toBe(0);
    expect(JSON.parse(intoCampaign.stdout)).toMatchObject({ campaignId: campaign.id, name: 'The barrow', phase: 'ended' });
    // …and refused, with the importer's sentence, into another ruleset's campaign.
    const thrum = (await listed()).find((c) => c.rulesetId === 'thrum')!;
    const wrong = await direct('imports:encounter', { campaignId: thrum.id, content: readFileSync(join(dir.path, 'barrow-fight.json'), 'utf8') });
    expect(await gmw(['import', 'barrow-fight.json', '--campaign', thrum.id])).toMatchObject({ code: 1, stdout: '', lines: ['error' in wrong ? wrong.error.message : ''] });
  });
});

describe('the built CLI (dist/cli/gmw.cjs)', () => {
  const root = join(import.meta.dirname, '..');
  const bin = join(root, 'dist', 'cli', 'gmw.cjs');
  beforeAll(() => {
    execFileSync(process.execPath, [join(root, 'scripts', 'build.mjs'), '--node-only', '--quiet'], { cwd: root, stdio: 'inherit' });
  }, 120_000);
  const cli = (args: string[], viaShebang = false) => {
    const result = viaShebang
      ? spawnSync(bin, args, { cwd: dir.path, encoding: 'utf8', env: { ...process.env, GMW_DB: db } })
      : spawnSync(process.execPath, [bin, ...args], { cwd: dir.path, encoding: 'utf8', env: { ...process.env, GMW_DB: db } });
    return { code: result.status, stdout: result.stdout, stderr: result.stderr };
  };

  it('is an executable script with a shebang, so package.json\'s bin can run it as gmw', { timeout: 20_000 }, () => {
    expect(readFileSync(bin, 'utf8').startsWith('#!/usr/bin/env node\n')).toBe(true);
    expect(statSync(bin).mode & 0o111).not.toBe(0);
    const version = cli(['--version'], true);
    expect(version).toMatchObject({ code: 0, stderr: '' });
    expect(version.stdout).toBe(`${JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version}\n`);
    expect(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).bin).toEqual({ gmw: 'dist/cli/gmw.cjs' });
  });

  it('exits with the documented codes, data on stdout and messages on stderr (GMW_DB picks the database)', { timeout: 60_000 }, () => {
    expect(cli(['--help'])).toMatchObject({ code: 0, stderr: '' });
    expect(cli(['frobnicate'])).toMatchObject({ code: 2, stdout: '', stderr: expect.stringMatching(/^Unknown command “frobnicate”\.\n\ngmw /) });
    expect(cli(['list'])).toMatchObject({ code: 4, stdout: '', stderr: `There is no database at ${db} yet (choose one with --db).\n` });
    const demo = cli(['demo']);
    expect(demo).toMatchObject({ code: 0, stderr: `Created a new database at ${db}.\nCreated ${RULESETS.length} demo campaigns.\n` });
    expect(cli(['list']).stdout).toContain('Demo — Thrum: Hollow Roads');
    expect(cli(['campaigns:get', '{"id":"nobody"}'])).toMatchObject({ code: 1, stdout: '', stderr: 'That campaign does not exist (it may have been removed).\n' });
    expect(cli(['import', 'missing.json'])).toMatchObject({ code: 3, stdout: '' });
    const backup = cli(['backup', 'copy.sqlite', '--progress']);
    expect(backup.code).toBe(0);
    expect(backup.stderr).toMatch(new RegExp(`Backing up… 100%\nChecking the copy…\nBacked up .* ${RULESETS.length} campaigns, integrity check passed\\)\\.\n$`));
  });
});
