// Prepares the benchmark's database before web mode starts: Enigma campaigns and fights made through the handler
// table (as the UI would), and long logs appended in bulk through EncounterStore in transactions (as
// scripts/long-fight-timing.mjs does). Returns the ids the page benchmarks open.
import { build } from 'esbuild';
import { nodeBundle } from '../../scripts/node-bundle.mjs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** Bundles the TypeScript pieces this module drives into dist/bench-ui (better-sqlite3 stays a normal require). */
async function loadApp(root) {
  const bundle = join(root, 'dist', 'bench-ui', 'prepare.mjs');
  await build({
    stdin: {
      contents: `
        export { openApp } from './server/app.ts';
        export { EncounterStore } from './server/encounter-store.ts';
        export { openDatabase, writeTransaction } from './db/connection.ts';
        export { getEncounter, readLog } from './db/encounters.ts';
        export { RuleRefusal } from './core/encounter/kernel.ts';
        export { GmError } from './core/api/contract.ts';
      `,
      resolveDir: root,
      loader: 'ts',
    },
    outfile: bundle, ...nodeBundle({ version: 'bench' }),
  });
  return import(pathToFileURL(bundle).href);
}

const PARTY = ['Ash', 'Bryn', 'Cole', 'Dara'];
const TEMPLATES = ['Goblin', 'Orc', 'Wolf', 'Bandit', 'Cultist', 'Skeleton', 'Ghoul', 'Brigand', 'Hound', 'Wraith'];
/** encounters:addFromCampaign adds at most this many copies of one template. */
const COPIES_AT_ONCE = 50;

/**
 * One Enigma fight with `size` combatants (four party members, the rest NPC copies), started. The templates are
 * Named NPCs (they face Mortal Peril at 0 LP instead of dropping out), as bench/fight.ts makes Enigma's foes: a long
 * fight keeps its order, and damage to 0 raises the prompt the latency benchmark answers.
 */
async function makeFight(app, ok, { name, size }) {
  const campaign = await ok(app, 'campaigns:create', { name, rulesetId: 'enigma' });
  const pcs = [];
  for (const pc of PARTY) pcs.push(await ok(app, 'characters:create', { campaignId: campaign.id, role: 'pc', name: pc, sheet: {} }));
  const npcCount = size - pcs.length;
  const templates = [];
  for (const npc of TEMPLATES.slice(0, Math.max(4, Math.ceil(npcCount / COPIES_AT_ONCE)))) templates.push(await ok(app, 'characters:create', { campaignId: campaign.id, role: 'npc', name: npc, sheet: { namedNpc: true } }));
  const encounter = await ok(app, 'encounters:create', { campaignId: campaign.id, name: `${size} combatants` });
  const npcs = templates.map((t, i) => ({ templateId: t.id, count: Math.floor(npcCount / templates.length) + (i < npcCount % templates.length ? 1 : 0) })).filter((n) => n.count > 0);
  // The handler adds at most 200 combatants a call: the party and the first copies, then the rest.
  let added = null;
  let batch = { pcIds: pcs.map((p) => p.id), npcs: [] };
  let inBatch = pcs.length;
  const flush = async () => {
    added = await ok(app, 'encounters:addFromCampaign', { id: encounter.id, ...batch });
    batch = { pcIds: [], npcs: [] };
    inBatch = 0;
  };
  for (const entry of npcs) {
    if (inBatch + entry.count > 200) await flush();
    batch.npcs.push(entry);
    inBatch += entry.count;
  }
  await flush();
  await ok(app, 'encounters:append', { id: encounter.id, event: { type: 'SET_GM_ORDER', ids: added.view.order.filter((c) => c.side === 'gm').map((c) => c.id) } });
  await ok(app, 'encounters:append', { id: encounter.id, event: { type: 'START' } });
  return { campaignId: campaign.id, encounterId: encounter.id, size };
}

/** How many log lines the encounter's full log holds (every event's lines). */
const logLines = (db, encounterId) => db.prepare('SELECT coalesce(sum(json_array_length(log_json)), 0) AS n FROM encounter_events WHERE encounter_id = ?').get(encounterId).n;

/**
 * Plays the fight on to round `round` as a GM at the table would, through EncounterStore (the append path of
 * encounters:append, dice rolled by the app): every turn ends with END_TURN, and turns take actions (attacks,
 * damage, healing, moves) spread evenly over the rounds until the log holds about `lines` lines by then. A fight
 * whose END_TURN lines alone pass `lines` (500 combatants) gets none. A Mortal Peril on the way is survived.
 * Returns the round reached and the log's length.
 */
function playToRound(lib, databasePath, encounterId, { round, lines, seed }) {
  const { EncounterStore, openDatabase, writeTransaction, getEncounter } = lib;
  const db = openDatabase(databasePath);
  const store = new EncounterStore(db);
  const now = new Date().toISOString();
  let state = seed >>> 0;
  const random = () => ((state = (Math.imul(state, 1664525) + 1013904223) >>> 0) / 4294967296);
  const view = () => store.engine(getEncounter(db, encounterId)).view();
  /** Applies the event when the rules accept it now; false when they refuse it. */
  const tryAppend = (event) => {
    try {
      store.append(getEncounter(db, encounterId), event, now);
      return true;
    } catch (error) {
      if (error instanceof lib.RuleRefusal || error instanceof lib.GmError) return false;
      throw error;
    }
  };
  const first = view();
  const size = first.order.filter((c) => c.status !== 'removed').length;
  const turnsToGo = Math.max(1, (round - first.round) * size);
  let turns = 0;
  writeTransaction(db, () => {
    for (let guard = 0; view().round < round && guard < turnsToGo * 40; guard++) {
      const now = view();
      if (now.prompt) {
        tryAppend({ type: 'RESOLVE_PERIL', combatantId: now.prompt.subjectId, choice: 'survive', costText: 'a scar to remember' });
        continue;
      }
      const active = now.order.find((c) => c.id === now.activeId);
      const wanted = lines * Math.min(1, (turns + 1) / turnsToGo);
      if (active && logLines(db, encounterId) < wanted && now.allowed.length > 1) {
        const present = now.order.filter((c) => c.status !== 'removed');
        const foes = present.filter((c) => c.side !== active.side && c.health && c.health.current * 2 > c.health.max);
        const foe = foes[Math.floor(random() * foes.length)];
        const hurt = present.filter((c) => c.health && c.health.current < c.health.max).sort((a, b) => a.health.current - b.health.current)[0];
        const choices = [
          foe && { type: 'ATTACK', attackerId: active.id, targetId: foe.id, mode: 'melee', distance: 1, sight: 'clear', damage: 'full' },
          foe && { type: 'APPLY_DAMAGE', targetId: foe.id, amount: 1 + Math.floor(random() * 3), source: `${active.name}'s blow` },
          hurt && { type: 'HEAL', targetId: hurt.id, amount: 1 + Math.floor(random() * 3), kind: 'magic', source: 'a healing draught' },
          { type: 'MOVE', spaces: 1 + Math.floor(random() * 5), pauses: 0 },
          { type: 'USE_ITEM', item: 'a smoke bomb' },
        ].filter(Boolean);
        // In a random order: the active combatant's actions run out, the GM's damage and healing do not.
        const shuffled = choices.map((event) => ({ event, key: random() })).sort((a, b) => a.key - b.key).map((c) => c.event);
        if (shuffled.some((event) => tryAppend(event))) continue;
      }
      if (tryAppend({ type: 'END_TURN' })) turns += 1;
      else throw new Error(`The fight could not go on: ${JSON.stringify(now.allowed)}`);
    }
  });
  const reached = { round: view().round, lines: logLines(db, encounterId), events: getEncounter(db, encounterId).event_count };
  db.close();
  return reached;
}

/** Appends END_TURN events in transactions of 5,000 until the encounter's log holds at least `lines` lines. */
function growLog(lib, databasePath, encounterId, lines) {
  const { EncounterStore, openDatabase, writeTransaction, getEncounter, readLog } = lib;
  const db = openDatabase(databasePath);
  const store = new EncounterStore(db);
  const now = new Date().toISOString();
  const count = () => readLog(db, encounterId).reduce((sum, { lines: l }) => sum + l.length, 0);
  const appendEvents = (n) => {
    for (let done = 0; done < n; ) {
      const batch = Math.min(5000, n - done);
      writeTransaction(db, () => {
        for (let i = 0; i < batch; i++) store.append(getEncounter(db, encounterId), { type: 'END_TURN' }, now);
      });
      done += batch;
    }
  };
  let have = count();
  // A sample first: how many lines one END_TURN writes in this fight, then the rest in one go.
  if (have < lines) appendEvents(200);
  const perEvent = (count() - have) / 200;
  have = count();
  if (have < lines) appendEvents(Math.ceil((lines - have) / perEvent));
  have = count();
  db.close();
  return have;
}

/**
 * Builds every fight the page benchmarks need in one database file: latency fights of 20, 200 and 500 combatants
 * played to round 5 with a log of about `latencyLines` lines, a 200-combatant fight with a `heapLines`-line log, and
 * a small fight with a `scrollLines`-line log for the full log screen (its heap is measured too).
 */
export async function prepareDatabase(root, databasePath, { heapLines, scrollLines, latencyLines = 1000, sizes = [20, 200, 500] }) {
  const lib = await loadApp(root);
  const ok = async (app, name, input) => {
    const envelope = await app.dispatch(name, input);
    if ('error' in envelope) throw new Error(`${name}: ${envelope.error.message}`);
    return envelope.result;
  };
  const app = lib.openApp({ databasePath, transport: 'cli', version: 'bench' });
  const latency = [];
  for (const size of sizes) latency.push(await makeFight(app, ok, { name: `Bench ${size}`, size }));
  const fights = {
    heap: await makeFight(app, ok, { name: 'Bench heap', size: 200 }),
    scroll: await makeFight(app, ok, { name: 'Bench scroll', size: 8 }),
  };
  app.close();
  for (const fight of latency) Object.assign(fight, playToRound(lib, databasePath, fight.encounterId, { round: 5, lines: latencyLines, seed: fight.size }));
  const heapLog = growLog(lib, databasePath, fights.heap.encounterId, heapLines);
  const scrollLog = growLog(lib, databasePath, fights.scroll.encounterId, scrollLines);
  return { fights, latency, heapLog, scrollLog };
}
