// Encounter exports and session recaps through the handler table on a real SQLite file: a short fight under each
// ruleset exported as JSON replays to the very state the runner shows; the summary handler; safe file names;
// hostile names (the longest the schemas allow) inert in Markdown and HTML; a session recap gathering the
// session's encounters, injuries and ledger; and refusals that change nothing.
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import type { EncounterDetail } from '../core/api/contract.ts';
import { EncounterEngine } from '../core/encounter/kernel.ts';
import type { EncounterView, GmEvent } from '../core/encounter/types.ts';
import { ENCOUNTER_FORMAT, EXPORT_VERSION, type EncounterExport } from '../core/export/types.ts';
import { findRuleset } from '../core/rulesets/registry.ts';
import { openApp } from './app.ts';
import { useTestApp } from './testing/harness.ts';

const t = useTestApp();
const { ok, refused, rows } = t;

interface Names {
  campaign?: string;
  pc?: string;
  npc?: string;
  encounter?: string;
}

/** A campaign with one party member and one NPC template, an encounter with both, and a way to send events. */
async function prepared(rulesetId: string, names: Names = {}) {
  const campaign = await ok('campaigns:create', { name: names.campaign ?? 'Vault', rulesetId });
  const pc = await ok('characters:create', { campaignId: campaign.id, role: 'pc', name: names.pc ?? 'Ash', sheet: {} });
  const npc = await ok('characters:create', { campaignId: campaign.id, role: 'npc', name: names.npc ?? 'Orc', sheet: {} });
  const encounter = await ok('encounters:create', { campaignId: campaign.id, name: names.encounter ?? 'Toll bridge' });
  const added = await ok('encounters:addFromCampaign', { id: encounter.id, pcIds: [pc.id], npcs: [{ templateId: npc.id, count: 1 }] });
  const [a, o] = added.view.order.map((c) => c.id) as [string, string];
  let detail: EncounterDetail = added;
  const send = async (event: GmEvent) => (detail = await ok('encounters:append', { id: encounter.id, event }));
  /** Answers whatever the rules ask with its first choice (dice rolled by the app), until nothing is asked. */
  const answer = async () => {
    for (let i = 0; i < 12 && detail.view.prompt && detail.view.phase !== 'ended'; i += 1) {
      await send({ type: detail.view.prompt.answer, id: detail.view.prompt.choices[0]!.id });
    }
  };
  const end = async (outcome: string) => {
    await answer();
    if (detail.view.phase !== 'ended') await send({ type: 'END_COMBAT', outcome });
    await answer();
  };
  return { campaign, pc, npc, encounter, ids: { a, o }, send, answer, end, detail: () => detail };
}

type Fight = Awaited<ReturnType<typeof prepared>>;

/** A short fight per ruleset: damage from the GM, an attack rolled by the app, a turn or two, healing, the end. */
const FIGHTS: Record<string, (f: Fight) => Promise<void>> = {
  enigma: async ({ send, end, ids: { a, o } }) => {
    await send({ type: 'START' });
    await send({ type: 'APPLY_DAMAGE', targetId: o, amount: 3, source: 'a falling rock' });
    await send({ type: 'ATTACK', attackerId: a, targetId: o, mode: 'melee', sight: 'clear', damage: 'full' });
    await send({ type: 'END_TURN' });
    await send({ type: 'END_TURN' });
    await send({ type: 'HEAL', targetId: o, amount: 1, kind: 'magic', source: 'a potion' });
    await end('Victory');
  },
  teams: async ({ send, answer, end, detail, ids: { a, o } }) => {
    await send({ type: 'START' });
    await send({ type: 'SELECT_MEMBER', combatantId: a });
    await send({ type: 'APPLY_DAMAGE', targetId: o, amount: 5, source: 'a fall' });
    // Dice typed in, so the attack hits and opens the raider's defence.
    await send({ type: 'ATTACK', attackerId: a, targetId: o, attribute: 'strength', proficiency: 'martial', testRoll: { faces: [6, 6], source: 'manual' }, luckRoll: { faces: [10], source: 'manual' } });
    await answer();
    // The other team sends whoever can still act (the raider may have been knocked out).
    await send({ type: 'END_TURN' });
    await answer();
    if (detail().view.activeId) await send({ type: 'END_TURN' });
    await send({ type: 'HEAL', targetId: o, pool: 'endurance', amount: 2, source: 'bandages' });
    await end('The raiders flee');
  },
  factions: async ({ send, answer, end, ids: { a, o } }) => {
    await send({ type: 'SET_INITIATIVE', faction: 'party' });
    await send({ type: 'START' });
    await send({ type: 'CHOOSE_FIRST_FACTION', faction: 'party' });
    await send({ type: 'SELECT_CHARACTER', combatantId: a });
    await send({ type: 'ATTACK', attackerId: a, targetIds: [o], kind: 'melee' });
    await answer();
    await send({ type: 'APPLY_DAMAGE', targetId: a, amount: 2, source: 'a thrown knife', byId: o });
    await send({ type: 'END_TURN' });
    await end('Won');
  },
  'cairn-errant': async ({ send, answer, end, detail, ids: { a, o } }) => {
    await send({ type: 'START' });
    await send({ type: 'APPLY_DAMAGE', targetId: o, amount: 1, source: 'a snare' });
    await send({ type: 'DECLARE_INTENT', combatantId: a, action: 'melee', targetId: o });
    await send({ type: 'SET_NPC_INTENT', combatantId: o, action: 'melee', targetId: a });
    await send({ type: 'LOCK_INTENTS' });
    await answer();
    if (detail().view.phase !== 'ended' && detail().view.allowed.includes('END_TURN')) await send({ type: 'END_TURN' });
    await end('The barrow is quiet');
  },
  thrum: async ({ send, answer, end, detail, ids: { a, o } }) => {
    await send({ type: 'START' });
    await send({ type: 'ROLL_INITIATIVE', combatantId: a });
    await send({ type: 'ROLL_INITIATIVE', combatantId: o });
    await send({ type: 'END_TURN' });
    await send({ type: 'END_TURN' });
    await send({ type: 'APPLY_LOAD', targetId: o, load: 'stress', amount: 2, source: 'a howl' });
    const attacker = detail().view.activeId!;
    const target = attacker === a ? o : a;
    await send({ type: 'ATTACK', attackerId: attacker, ability: 'Strike', attackType: 'physical', targets: [{ targetId: target }], fatigue: 2, stress: 1 });
    await answer();
    await send({ type: 'END_TURN' });
    await end('The orc flees');
  },
};

async function exported(id: string): Promise<EncounterExport> {
  const file = await ok('exports:encounter', { id, format: 'json' });
  expect(file.mime).toBe('application/json');
  return JSON.parse(file.content) as EncounterExport;
}

function replay(file: EncounterExport): EncounterView {
  const engine = EncounterEngine.create(findRuleset(file.rulesetId)!.encounter, file.encounter.input);
  for (const event of file.events) engine.apply(event);
  return engine.view();
}

/** The number a view's stat starts with ("7/12" → 7), and its maximum after a slash. */
const statNumbers = (value: string) => value.split('/').map(Number);

describe('encounter exports replay to the same state, for every ruleset', () => {
  for (const rulesetId of Object.keys(FIGHTS)) {
    it(`${rulesetId}: the JSON holds the stored events exactly, and replaying them gives the runner's view`, async () => {
      const fight = await prepared(rulesetId);
      await FIGHTS[rulesetId]!(fight);
      const stored = await ok('encounters:get', { id: fight.encounter.id });
      expect(stored.view.phase).toBe('ended');
      expect(stored.encounter.eventCount).toBeGreaterThanOrEqual(5);

      const file = await exported(fight.encounter.id);
      expect(file).toMatchObject({ format: ENCOUNTER_FORMAT, version: EXPORT_VERSION, rulesetId, encounter: { id: fight.encounter.id, name: 'Toll bridge', campaignName: 'Vault', phase: 'ended', round: stored.view.round } });
      const payloads = rows('SELECT payload_json FROM encounter_events WHERE encounter_id = ? ORDER BY seq', fight.encounter.id).map((r) => JSON.parse(String(r['payload_json'])));
      expect(file.events).toEqual(payloads);
      expect(file.log).toEqual(stored.log);
      expect(file.encounter.input).toEqual(JSON.parse(String(rows('SELECT input_json FROM encounters WHERE id = ?', fight.encounter.id)[0]!['input_json'])));
      expect(replay(file)).toEqual(stored.view);

      // The summary adds up: what each combatant took less what it got back is what its track lost.
      const summary = await ok('encounters:summary', { id: fight.encounter.id });
      expect(summary).toEqual(file.summary);
      expect(summary.length).toBeGreaterThan(0);
      const taken = (id: string) => summary.reduce((sum, r) => sum + (r.combatants.find((c) => c.id === id)?.taken ?? 0), 0);
      const healed = (id: string) => summary.reduce((sum, r) => sum + (r.combatants.find((c) => c.id === id)?.healed ?? 0), 0);
      if (rulesetId === 'thrum') {
        expect(summary[0]!.measure).toBe('loads');
        expect(taken(fight.ids.o)).toBeGreaterThanOrEqual(2);
      } else {
        const pools = { teams: ['Endurance'], 'cairn-errant': ['STR'] }[rulesetId] ?? [];
        for (const c of stored.view.order) {
          const lost = c.health!.max - c.health!.current + pools.reduce((sum, label) => {
            const [current, max] = statNumbers(c.stats!.find((s) => s.label === label)!.value);
            return sum + (max! - current!);
          }, 0);
          expect(taken(c.id) - healed(c.id), c.name).toBe(lost);
        }
        expect(taken(fight.ids.o)).toBeGreaterThan(0);
      }
    });
  }
});

describe('the export handlers', () => {
  it('names the file after the encounter, slugged, with the format\'s extension and type', async () => {
    const fight = await prepared('enigma', { encounter: 'Die Brücke über den Fluss — Teil 2: Rückkehr der Räuber, und noch viel mehr Text' });
    const md = await ok('exports:encounter', { id: fight.encounter.id, format: 'md' });
    const html = await ok('exports:encounter', { id: fight.encounter.id, format: 'html' });
    expect(md.filename).toBe('die-brucke-uber-den-fluss-teil-2-ruckkehr-der-rauber-und-noc.md');
    expect(md.filename).toHaveLength(60 + '.md'.length);
    expect(md.mime).toBe('text/markdown');
    expect(html).toMatchObject({ filename: 'die-brucke-uber-den-fluss-teil-2-ruckkehr-der-rauber-und-noc.html', mime: 'text/html' });
    const symbols = await prepared('enigma', { campaign: 'Other', encounter: '⚔️ !!! ⚔️' });
    expect((await ok('exports:encounter', { id: symbols.encounter.id, format: 'json' })).filename).toBe('encounter.json');
  });

  it('exports an encounter still in preparation: its setup log and no rounds', async () => {
    const fight = await prepared('enigma');
    const file = await exported(fight.encounter.id);
    expect(file.summary).toEqual([]);
    expect(file.encounter.phase).toBe('setup');
    const md = (await ok('exports:encounter', { id: fight.encounter.id, format: 'md' })).content;
    expect(md).toContain('- **Outcome:** in preparation');
    expect(md).toContain('## Before the fight');
  });

  it('writes the rounds, the log with its rulings, and a summary table per round in Markdown', async () => {
    const fight = await prepared('enigma');
    await FIGHTS['enigma']!(fight);
    const md = (await ok('exports:encounter', { id: fight.encounter.id, format: 'md' })).content;
    expect(md.startsWith('# Toll bridge\n')).toBe(true);
    expect(md).toContain('- **Campaign:** Vault');
    expect(md).toContain('- **Ruleset:** Enigma');
    expect(md).toContain('- **Outcome:** Victory');
    expect(md).toMatch(/## Round 1\n\n- Combat starts, party first\./);
    expect(md).toContain('- Orc takes 3 damage from a falling rock: 5 LP.');
    expect(md).toMatch(/## Round 2\n/);
    expect(md.match(/^\| Combatant \| Side \| Damage dealt \| Damage taken \| Healed \| Statuses at the end of the round \| Down \|$/gm)).toHaveLength(2);
    const withRulings = (await ok('encounters:get', { id: fight.encounter.id })).log.find((l) => l.rulings?.length);
    if (withRulings) expect(md).toContain(`*(${withRulings.rulings!.join(', ')})*`);
  });

  it('refuses an unknown encounter or session and a format it does not write, with a sentence', async () => {
    expect(await refused('exports:encounter', { id: 'nope', format: 'md' })).toBe('That encounter does not exist (it may have been removed).');
    expect(await refused('encounters:summary', { id: 'nope' })).toBe('That encounter does not exist (it may have been removed).');
    expect(await refused('exports:session', { id: 'nope', format: 'html' })).toBe('That session does not exist.');
    const fight = await prepared('enigma');
    expect(await refused('exports:encounter', { id: fight.encounter.id, format: 'pdf' })).toBe('The format is md, html or json.');
    expect(await refused('exports:session', { id: 'x', format: 'json' })).toBe('A session recap is md or html.');
  });

  it('names the event when a stored event no longer replays, and changes nothing', async () => {
    const fight = await prepared('enigma');
    await FIGHTS['enigma']!(fight);
    // A stored damage event edited on disk to point at nobody: the file no longer replays. Events stored with their
    // roster changes are summed without a replay, which cannot notice such an edit; these are as a version before
    // 7 stored them, so the summary replays them.
    const db = new Database(t.dir.file());
    db.prepare("UPDATE encounter_events SET payload_json = json_set(payload_json, '$.targetId', 'nobody') WHERE encounter_id = ? AND seq = 3").run(fight.encounter.id);
    db.prepare('UPDATE encounter_events SET roster_json = NULL WHERE encounter_id = ?').run(fight.encounter.id);
    db.close();
    const before = rows('SELECT * FROM encounter_events ORDER BY seq');
    expect(await refused('exports:encounter', { id: fight.encounter.id, format: 'json' })).toBe('“Toll bridge” cannot be exported: Event 3 (APPLY_DAMAGE) no longer replays: That creature is not in the fight.');
    expect(await refused('encounters:summary', { id: fight.encounter.id })).toMatch(/^“Toll bridge” cannot be exported: Event 3 \(APPLY_DAMAGE\)/);
    expect(rows('SELECT * FROM encounter_events ORDER BY seq')).toEqual(before);
  });
});

/** Hostile names, each as long as the schemas allow. */
const HOSTILE = {
  campaign: '<script>alert(1)</script> `rm -rf` | [x](javascript:alert(1))'.padEnd(80, '*'),
  pc: '"><img src=x onerror=alert(1)>'.padEnd(80, '|'),
  npc: "'><svg onload=alert(1)>".padEnd(76, '`'),
  encounter: '# <iframe src=x></iframe> | ``` _a_ [[wiki]] $x$'.padEnd(80, '<'),
};

/** Every tag the page opens: only those the exporter writes itself. */
const ALLOWED_TAGS = new Set(['html', 'head', 'meta', 'title', 'style', 'body', 'header', 'h1', 'h2', 'h3', 'p', 'dl', 'dt', 'dd', 'section', 'figure', 'figcaption',
  'svg', 'defs', 'pattern', 'rect', 'line', 'text', 'g', 'ul', 'ol', 'li', 'span', 'table', 'caption', 'thead', 'tbody', 'tr', 'th', 'td']);
const tagsOf = (html: string) => new Set([...html.matchAll(/<([a-zA-Z][\w-]*)/g)].map((m) => m[1]!.toLowerCase()));

/** Markdown where none of the hostile strings became markup: no raw HTML, no unescaped code or table pipes. */
function expectInertMarkdown(md: string) {
  expect(md).not.toMatch(/<[a-z!/]/i);
  expect(md).not.toMatch(/(^|[^\\])`/m);
  for (const line of md.split('\n').filter((l) => l.startsWith('| '))) {
    // Every table row has the header's number of cells: no name split a row.
    expect(line.split(/(?<!\\)\|/).length - 2, line).toBeGreaterThanOrEqual(6);
  }
  const header = md.split('\n').filter((l) => l.startsWith('| Combatant'));
  for (const h of header) {
    const cells = h.split(/(?<!\\)\|/).length;
    const table = md.slice(md.indexOf(h)).split('\n\n')[0]!.split('\n');
    for (const row of table) expect(row.split(/(?<!\\)\|/).length, row).toBe(cells);
  }
}

describe('the kept replay', () => {
  /** What an app that has never replayed the encounter answers: a second one opened on the same file. */
  async function fresh(name: string, input: unknown): Promise<unknown> {
    const other = openApp({ databasePath: t.dir.file(), transport: 'cli', version: 'test' });
    try {
      const envelope = await other.dispatch(name, input);
      if ('error' in envelope) throw new Error(envelope.error.message);
      return envelope.result;
    } finally {
      other.close();
    }
  }

  it('follows appends and undos as a replay of every event does, the summary and the exports alike', async () => {
    const fight = await prepared('enigma');
    const { encounter, ids, send } = fight;
    const id = encounter.id;
    const same = async () => {
      expect(await ok('encounters:summary', { id })).toEqual(await fresh('encounters:summary', { id }));
      const file = await ok('exports:encounter', { id, format: 'json' });
      const other = (await fresh('exports:encounter', { id, format: 'json' })) as typeof file;
      expect(JSON.parse(file.content).summary).toEqual(JSON.parse(other.content).summary);
    };
    await send({ type: 'START' });
    await send({ type: 'APPLY_DAMAGE', targetId: ids.o, amount: 3, source: 'a falling rock' });
    // An export first: the replay it keeps was fed the events the export had read.
    await ok('exports:encounter', { id, format: 'md' });
    await same();
    await send({ type: 'APPLY_DAMAGE', targetId: ids.o, amount: 2, source: 'a second rock' });
    await send({ type: 'END_TURN' });
    await same();
    // Undone and replaced by another event at the same place: the kept replay had counted the undone one.
    await ok('encounters:undo', { id });
    await send({ type: 'HEAL', targetId: ids.o, amount: 1, kind: 'magic', source: 'a potion' });
    await same();
    const taken = (await ok('encounters:summary', { id })).flatMap((r) => r.combatants).find((c) => c.id === ids.o)!;
    expect([taken.taken, taken.healed]).toEqual([5, 1]);
    await ok('encounters:undo', { id });
    await ok('encounters:undo', { id });
    await same();
    await ok('encounters:redo', { id });
    await same();
  });
});

describe('hostile names come out inert', () => {
  it('in an encounter\'s Markdown and HTML, with the longest names the schemas allow', async () => {
    const fight = await prepared('enigma', HOSTILE);
    await FIGHTS['enigma']!(fight);
    const md = (await ok('exports:encounter', { id: fight.encounter.id, format: 'md' })).content;
    expectInertMarkdown(md);
    expect(md).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(md).toContain('\\|\\|\\|');
    expect(md).toMatch(/^# \\# &lt;iframe/m);

    const html = (await ok('exports:encounter', { id: fight.encounter.id, format: 'html' })).content;
    expect([...tagsOf(html)].filter((tag) => !ALLOWED_TAGS.has(tag))).toEqual([]);
    expect(html).not.toMatch(/<script|<img|<iframe|<svg onload/i);
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('&quot;&gt;&lt;img src=x onerror=alert(1)&gt;');
    expect(html).toContain('&#39;&gt;&lt;svg onload=alert(1)&gt;');
    expect(html).toContain(`<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:`);

    // The JSON keeps the names exactly as typed: it is data, not a page.
    const file = await exported(fight.encounter.id);
    expect(file.encounter.name).toBe(HOSTILE.encounter);
    expect(file.summary[0]!.combatants.map((c) => c.name)).toContain(HOSTILE.pc);
  });

  it('in a session recap, with a hostile title and notes', async () => {
    const fight = await prepared('enigma', HOSTILE);
    const session = rows('SELECT id FROM sessions')[0]!['id'] as string;
    await ok('sessions:update', { id: session, title: '<b>bold</b> | `x`', notes: 'line one\n# not a heading\n<script>alert(2)</script>' });
    await FIGHTS['enigma']!(fight);
    const md = (await ok('exports:session', { id: session, format: 'md' })).content;
    expectInertMarkdown(md);
    expect(md).toContain('\\# not a heading');
    const html = (await ok('exports:session', { id: session, format: 'html' })).content;
    expect([...tagsOf(html)].filter((tag) => !ALLOWED_TAGS.has(tag))).toEqual([]);
    expect(html).toContain('&lt;script&gt;alert(2)&lt;/script&gt;');
    expect(html).toContain('&lt;b&gt;bold&lt;/b&gt; | `x`');
  });
});

describe('the session recap', () => {
  it('gathers the session\'s encounters with their figures, the injuries gained and healed, and the ledger', async () => {
    const campaign = await ok('campaigns:create', { name: 'Vault', rulesetId: 'enigma' });
    const berrik = await ok('characters:create', { campaignId: campaign.id, role: 'pc', name: 'Berrik', sheet: { endure: 10 } });
    const goblin = await ok('characters:create', { campaignId: campaign.id, role: 'npc', name: 'Goblin', sheet: { endure: 6 } });
    const started = await ok('ledger:append', { campaignId: campaign.id, event: { type: 'SESSION_START', title: 'The vault door', date: '2026-11-20' } });
    const session = started.session!.id;
    const encounter = await ok('encounters:create', { campaignId: campaign.id, name: 'First blood' });
    const added = await ok('encounters:addFromCampaign', { id: encounter.id, pcIds: [berrik.id], npcs: [{ templateId: goblin.id, count: 1 }] });
    const ids = Object.fromEntries(added.view.order.map((c) => [c.name, c.id])) as Record<string, string>;
    const send = (event: GmEvent) => ok('encounters:append', { id: encounter.id, event });
    await send({ type: 'START' });
    await send({ type: 'APPLY_DAMAGE', targetId: ids['Berrik']!, amount: 20, source: 'trap' });
    await send({ type: 'RESOLVE_PERIL', combatantId: ids['Berrik']!, choice: 'survive', costText: 'a limp', injury: { mode: 'new', name: 'Sprained Ankle', category: 'speed', baseRoll: 1 } });
    await send({ type: 'END_COMBAT', outcome: 'Victory' });
    await ok('ledger:append', { campaignId: campaign.id, event: { type: 'REST', characterId: berrik.id } });
    await ok('ledger:append', { campaignId: campaign.id, event: { type: 'SESSION_END', notes: 'They found the key.\nNext: the stairs.' } });
    // What a later session does stays out of this recap.
    await ok('ledger:append', { campaignId: campaign.id, event: { type: 'SESSION_START', title: 'Later' } });
    await ok('encounters:create', { campaignId: campaign.id, name: 'Not this one' });

    const md = await ok('exports:session', { id: session, format: 'md' });
    expect(md).toMatchObject({ filename: 'session-1-the-vault-door.md', mime: 'text/markdown' });
    const text = md.content;
    expect(text.startsWith('# Session 1: The vault door\n')).toBe(true);
    expect(text).toContain('- **Played on:** 2026-11-20');
    expect(text).toContain('- **In-game:** day 1');
    expect(text).toContain('### First blood');
    expect(text).toContain('Outcome: Victory · Rounds: 1 · day 1');
    // The trap takes Berrik's 10 LP; surviving Mortal Peril gives 5 back (RULES.md's Survive).
    expect(text).toMatch(/\| Berrik \| Party \| 0 \| 10 \| 5 \| round 1 \|/);
    expect(text).toMatch(/### Gained\n\n- Berrik: Sprained Ankle \(speed\), day 1, in “First blood”/);
    expect(text).toMatch(/### Healed\n\n- Berrik: Sprained Ankle, healed on day 1/);
    expect(text).toMatch(/## Recovery and the clock\n\n- Day 1: The vault door starts \(2026-11-20\) on day 1\.\n- Day 1: Berrik rests/);
    expect(text).toContain('The vault door ends on day 1.');
    expect(text).toContain('## Notes\n\nThey found the key.\n\nNext: the stairs.');
    expect(text).not.toContain('Not this one');
    expect(text).not.toContain('Later starts');

    const html = await ok('exports:session', { id: session, format: 'html' });
    expect(html).toMatchObject({ filename: 'session-1-the-vault-door.html', mime: 'text/html' });
    expect(html.content).toContain('<h3>First blood</h3>');
    expect(html.content).toContain('<svg class="chart"');
    expect(html.content).toContain('<p class="notes">Next: the stairs.</p>');
  });
});
