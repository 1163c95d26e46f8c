// `node scripts/long-fight-timing.mjs [--events N] [--keep]`: builds one Enigma campaign whose fight holds N GM
// events (default 100,000; END_TURN through EncounterStore in batches of 5,000 per transaction), then times what
// a GM waits for: opening the app on that file, resuming the fight (the first encounters:get: newest snapshot plus
// the events after it), a warm get, an undo, a redo and the JSON export. Prints the figures docs/reliability.md
// quotes. A timing script, not a test: nothing here is asserted against a target.
import { build } from 'esbuild';
import { nodeBundle } from './node-bundle.mjs';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const argv = process.argv.slice(2);
const at = argv.indexOf('--events');
const events = at >= 0 ? Number(argv[at + 1]) : 100_000;
if (!Number.isInteger(events) || events < 1) {
  console.error('--events takes a whole number of at least 1.');
  process.exit(2);
}

// The app is TypeScript: bundle the pieces this script drives (better-sqlite3 stays a normal require).
// The bundle sits in dist/ so it finds node_modules; the database goes to a temporary folder.
const folder = mkdtempSync(join(tmpdir(), 'gmw-long-fight-'));
const bundle = join(root, 'dist', 'long-fight', 'long-fight.mjs');
await build({
  stdin: {
    contents: `
      export { openApp } from './server/app.ts';
      export { EncounterStore } from './server/encounter-store.ts';
      export { openDatabase, writeTransaction } from './db/connection.ts';
      export { getEncounter } from './db/encounters.ts';
    `,
    resolveDir: root,
    loader: 'ts',
  },
  outfile: bundle, ...nodeBundle({ version: 'timing' }),
});
const { openApp, EncounterStore, openDatabase, writeTransaction, getEncounter } = await import(pathToFileURL(bundle).href);

const databasePath = join(folder, 'gm-workstation.sqlite');
const time = async (work) => {
  const start = performance.now();
  const value = await work();
  return [performance.now() - start, value];
};
const ok = async (app, name, input) => {
  const envelope = await app.dispatch(name, input);
  if ('error' in envelope) throw new Error(`${name}: ${envelope.error.message}`);
  return envelope.result;
};

// Prepare the fight through the handler table, as the UI does.
let app = openApp({ databasePath, transport: 'cli', version: 'timing' });
const campaign = await ok(app, 'campaigns:create', { name: 'Endless', rulesetId: 'enigma' });
const ash = await ok(app, 'characters:create', { campaignId: campaign.id, role: 'pc', name: 'Ash', sheet: {} });
const goblin = await ok(app, 'characters:create', { campaignId: campaign.id, role: 'npc', name: 'Goblin', sheet: {} });
const encounter = await ok(app, 'encounters:create', { campaignId: campaign.id, name: 'The Long Night' });
const added = await ok(app, 'encounters:addFromCampaign', { id: encounter.id, pcIds: [ash.id], npcs: [{ templateId: goblin.id, count: 3 }] });
await ok(app, 'encounters:append', { id: encounter.id, event: { type: 'SET_GM_ORDER', ids: added.view.order.filter((c) => c.side === 'gm').map((c) => c.id) } });
await ok(app, 'encounters:append', { id: encounter.id, event: { type: 'START' } });
app.close();

const [generateMs] = await time(() => {
  const db = openDatabase(databasePath);
  const store = new EncounterStore(db);
  const now = new Date().toISOString();
  for (let done = 0; done < events; ) {
    const batch = Math.min(5000, events - done);
    writeTransaction(db, () => {
      for (let i = 0; i < batch; i++) store.append(getEncounter(db, encounter.id), { type: 'END_TURN' }, now);
    });
    done += batch;
  }
  db.close();
});

const [openMs, opened] = await time(() => openApp({ databasePath, transport: 'cli', version: 'timing' }));
app = opened;
const [resumeMs, resumed] = await time(() => ok(app, 'encounters:get', { id: encounter.id }));
const [warmMs] = await time(() => ok(app, 'encounters:get', { id: encounter.id }));
const [listMs] = await time(() => ok(app, 'campaigns:get', { id: campaign.id }));
const [undoMs] = await time(() => ok(app, 'encounters:undo', { id: encounter.id }));
const [redoMs] = await time(() => ok(app, 'encounters:redo', { id: encounter.id }));
const [exportMs, exported] = await time(() => ok(app, 'exports:encounter', { id: encounter.id, format: 'json' }));
const [markdownMs, markdown] = await time(() => ok(app, 'exports:encounter', { id: encounter.id, format: 'md' }));
const [campaignMs, campaignFile] = await time(() => ok(app, 'exports:campaign', { id: campaign.id }));
const [importMs, imported] = await time(() => app.dispatch('imports:campaign', { content: campaignFile.content }));
app.close();

const rows = [
  ['events in the fight', resumed.encounter.eventCount.toLocaleString('en')],
  ['round reached', resumed.view.round.toLocaleString('en')],
  ['log lines returned by encounters:get', resumed.log.length.toLocaleString('en')],
  ['database size', `${(statSync(databasePath).size / 1024 / 1024).toFixed(1)} MB`],
  [`writing the events (batches of 5,000)`, `${(generateMs / 1000).toFixed(1)} s`],
  ['openApp on the file', `${openMs.toFixed(0)} ms`],
  ['resume: first encounters:get (snapshot + replay)', `${resumeMs.toFixed(0)} ms`],
  ['warm encounters:get', `${warmMs.toFixed(0)} ms`],
  ['campaigns:get', `${listMs.toFixed(0)} ms`],
  ['undo', `${undoMs.toFixed(0)} ms`],
  ['redo', `${redoMs.toFixed(0)} ms`],
  ['JSON export', `${exportMs.toFixed(0)} ms (${(exported.content.length / 1024 / 1024).toFixed(1)} MB)`],
  ['Markdown export', `${markdownMs.toFixed(0)} ms (${(markdown.content.length / 1024 / 1024).toFixed(1)} MB)`],
  ['campaign file export', `${campaignMs.toFixed(0)} ms (${(Buffer.byteLength(campaignFile.content) / 1024 / 1024).toFixed(1)} MB)`],
  ['campaign file import (a new campaign)', 'error' in imported ? `refused: ${imported.error.message}` : `${importMs.toFixed(0)} ms`],
];
console.log(`Long fight on Node ${process.version}, ${databasePath}`);
for (const [label, value] of rows) console.log(`${label.padEnd(52)} ${value}`);
if (!argv.includes('--keep')) rmSync(folder, { recursive: true, force: true });
