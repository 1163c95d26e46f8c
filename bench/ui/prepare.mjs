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
      `,
      resolveDir: root,
      loader: 'ts',
    },
    outfile: bundle, ...nodeBundle({ version: 'bench' }),
  });
  return import(pathToFileURL(bundle).href);
}

const PARTY = ['Ash', 'Bryn', 'Cole', 'Dara'];
const TEMPLATES = ['Goblin', 'Orc', 'Wolf', 'Bandit'];

/**
 * One Enigma fight with `size` combatants (four party members, the rest NPC copies), started, optionally with
 * `logLines` log lines of END_TURN history appended in bulk.
 */
async function makeFight(app, ok, { name, size }) {
  const campaign = await ok(app, 'campaigns:create', { name, rulesetId: 'enigma' });
  const pcs = [];
  for (const pc of PARTY) pcs.push(await ok(app, 'characters:create', { campaignId: campaign.id, role: 'pc', name: pc, sheet: {} }));
  const templates = [];
  for (const npc of TEMPLATES) templates.push(await ok(app, 'characters:create', { campaignId: campaign.id, role: 'npc', name: npc, sheet: {} }));
  const encounter = await ok(app, 'encounters:create', { campaignId: campaign.id, name: `${size} combatants` });
  const npcCount = size - pcs.length;
  const npcs = templates.map((t, i) => ({ templateId: t.id, count: Math.floor(npcCount / templates.length) + (i < npcCount % templates.length ? 1 : 0) })).filter((n) => n.count > 0);
  const added = await ok(app, 'encounters:addFromCampaign', { id: encounter.id, pcIds: pcs.map((p) => p.id), npcs });
  await ok(app, 'encounters:append', { id: encounter.id, event: { type: 'SET_GM_ORDER', ids: added.view.order.filter((c) => c.side === 'gm').map((c) => c.id) } });
  await ok(app, 'encounters:append', { id: encounter.id, event: { type: 'START' } });
  return { campaignId: campaign.id, encounterId: encounter.id };
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
 * Builds every fight the page benchmarks need in one database file:
 * latency fights of 200 and 20 combatants, a 200-combatant fight with a `heapLines`-line log, and a small fight
 * with a `scrollLines`-line log for the full log screen.
 */
export async function prepareDatabase(root, databasePath, { heapLines, scrollLines }) {
  const lib = await loadApp(root);
  const ok = async (app, name, input) => {
    const envelope = await app.dispatch(name, input);
    if ('error' in envelope) throw new Error(`${name}: ${envelope.error.message}`);
    return envelope.result;
  };
  const app = lib.openApp({ databasePath, transport: 'cli', version: 'bench' });
  const fights = {
    large: await makeFight(app, ok, { name: 'Bench 200', size: 200 }),
    small: await makeFight(app, ok, { name: 'Bench 20', size: 20 }),
    heap: await makeFight(app, ok, { name: 'Bench heap', size: 200 }),
    scroll: await makeFight(app, ok, { name: 'Bench scroll', size: 8 }),
  };
  app.close();
  const heapLog = growLog(lib, databasePath, fights.heap.encounterId, heapLines);
  const scrollLog = growLog(lib, databasePath, fights.scroll.encounterId, scrollLines);
  return { fights, heapLog, scrollLog };
}
