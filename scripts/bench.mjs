// `npm run bench [-- --quick] [-- --only <section>]`: the benchmark suite. Runs the node benchmarks (bench/*.ts,
// bundled with esbuild like scripts/long-fight-timing.mjs), then the UI benchmarks (`node bench/ui/run.mjs`, one
// `BENCH {json}` line per figure), prints every figure beside its baseline measured in the same run with their ratio
// and target, the machine it ran on, and the change against bench/reference.json when it exists. Writes the run to
// bench/results/latest.json. Benchmarks, not tests: a missed target is reported, and the exit code stays 0 unless
// a benchmark itself fails.
import { build } from 'esbuild';
import { nodeBundle } from './node-bundle.mjs';
import { matchReference } from './bench-compare.mjs';
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, release, tmpdir, totalmem, type as osType } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromiumPath } from './chromium.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const argv = process.argv.slice(2);
const quick = argv.includes('--quick');
const only = [];
for (let i = 0; i < argv.length; i++) {
  if (argv[i] === '--only') {
    if (!argv[i + 1]) {
      console.error('--only takes a section name (Replay, Append, Resume, Campaign, Export, or a UI section).');
      process.exit(2);
    }
    only.push(argv[i + 1]);
  }
}
const note = (text) => process.stderr.write(`  … ${text}\n`);

/** The machine the run measured. */
function machine() {
  const chromium = chromiumPath();
  let chromiumVersion = null;
  if (chromium) {
    try {
      chromiumVersion = execFileSync(chromium, ['--version'], { encoding: 'utf8', timeout: 20_000 }).trim();
    } catch {
      chromiumVersion = null;
    }
  }
  let os = `${osType()} ${release()}`;
  try {
    const pretty = /^PRETTY_NAME="?([^"\n]*)"?/m.exec(readFileSync('/etc/os-release', 'utf8'));
    if (pretty) os = `${pretty[1]} (${os})`;
  } catch {
    // not Linux: the kernel name and release say enough
  }
  return {
    cpu: cpus()[0]?.model.trim() ?? 'unknown',
    cores: cpus().length,
    ramGb: Math.round(totalmem() / 1024 ** 3),
    node: process.version,
    chromium: chromiumVersion,
    os,
    loadAverage: loadavg().map((l) => Number(l.toFixed(2))),
  };
}

// The Campaign section's generated campaign, kept for the UI's campaign screens (removed at the end).
const campaignFolder = mkdtempSync(join(tmpdir(), 'gmw-bench-campaign-'));
const campaignAt = join(campaignFolder, 'campaign.sqlite');

async function nodeResults() {
  const bundle = join(root, 'dist', 'bench', 'bench.mjs');
  await build({
    entryPoints: [join(root, 'bench', 'node.ts')],
    outfile: bundle, ...nodeBundle({ version: 'bench' }),
  });
  const { runNodeBenchmarks, SECTIONS } = await import(pathToFileURL(bundle).href);
  const nodeOnly = only.filter((o) => SECTIONS.some((s) => s.toLowerCase() === o.toLowerCase()));
  if (only.length && nodeOnly.length === 0) return [];
  return runNodeBenchmarks({ quick, only: nodeOnly, note, campaignAt, onResults: (figures) => figures.forEach((r) => note(`${r.section}: ${r.name} = ${format(r.value)} ${r.unit}`)) });
}

/** The UI part: its own process, one `BENCH {json}` line per figure on stdout. */
function uiResults(nodeSections) {
  const runner = join(root, 'bench', 'ui', 'run.mjs');
  if (!existsSync(runner)) {
    console.log('UI benchmarks skipped: bench/ui/run.mjs does not exist yet.');
    return Promise.resolve({ results: [], failed: false });
  }
  const uiOnly = only.filter((o) => !nodeSections.some((s) => s.toLowerCase() === o.toLowerCase()));
  if (only.length && uiOnly.length === 0) return Promise.resolve({ results: [], failed: false });
  const args = [runner, ...(quick ? ['--quick'] : []), ...uiOnly.flatMap((o) => ['--only', o]), ...(existsSync(campaignAt) ? ['--campaign', campaignAt] : [])];
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
    const results = [];
    let buffered = '';
    child.stdout.on('data', (chunk) => {
      buffered += chunk;
      const lines = buffered.split('\n');
      buffered = lines.pop();
      for (const line of lines) {
        if (line.startsWith('BENCH ')) results.push(JSON.parse(line.slice('BENCH '.length)));
        else if (line.trim()) process.stderr.write(`  ui: ${line}\n`);
      }
    });
    child.on('close', (code) => {
      if (buffered.startsWith('BENCH ')) results.push(JSON.parse(buffered.slice('BENCH '.length)));
      if (code !== 0) console.log(`UI benchmarks: bench/ui/run.mjs exited with code ${code}.`);
      resolve({ results, failed: code !== 0 });
    });
  });
}

function format(value) {
  if (!Number.isFinite(value)) return String(value);
  const abs = Math.abs(value);
  const digits = abs >= 1000 ? 0 : abs >= 100 ? 1 : abs >= 1 ? 2 : 3;
  return value.toLocaleString('en', { maximumFractionDigits: digits, minimumFractionDigits: digits });
}

const targetText = (t) => (t ? `${t.of} ${t.op} ${format(t.value)}` : '—');

function table(rows) {
  const head = ['section', 'figure', 'value', 'baseline', 'ratio', 'target', ''];
  const cells = rows.map((r) => [r.section, r.name, `${format(r.value)} ${r.unit}`, r.baseline ? `${format(r.baseline.value)} (${r.baseline.name})` : '—', r.ratio == null ? '—' : format(r.ratio), targetText(r.target), `${r.target ? (r.pass ? '✓' : '✗') : ''}${r.underLoad ? ' (under load)' : ''}`.trim()]);
  const widths = head.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i].length)));
  const line = (c) => c.map((v, i) => v.padEnd(widths[i])).join('  ').trimEnd();
  return [line(head), line(widths.map((w) => '-'.repeat(w))), ...cells.map(line)].join('\n');
}

function compare(results, reference) {
  const matched = matchReference(results, reference.results);
  const lines = [];
  for (const [i, r] of results.entries()) {
    const was = matched[i];
    if (!was) {
      lines.push(`  ${r.section}: ${r.name}: new (no reference figure)`);
      continue;
    }
    const change = was.value === 0 ? (r.value === 0 ? 'no change' : 'was 0') : `${r.value >= was.value ? '+' : ''}${((r.value / was.value - 1) * 100).toFixed(0)}%`;
    const ratio = was.ratio == null || r.ratio == null ? '' : `, ratio ${format(was.ratio)} → ${format(r.ratio)}`;
    lines.push(`  ${r.section}: ${r.name}: ${format(was.value)} → ${format(r.value)} ${r.unit} (${change})${ratio}`);
  }
  return lines.join('\n');
}

const startedAt = new Date().toISOString();
const host = machine();
console.log(`GM Workstation benchmarks${quick ? ' (quick: small sizes, a smoke run)' : ''}, ${startedAt}`);
let failed = false;
let nodeFigures = [];
try {
  nodeFigures = await nodeResults();
} catch (error) {
  failed = true;
  console.error('The node benchmarks failed:', error);
}
const ui = await uiResults(['Replay', 'Append', 'Resume', 'Campaign', 'Export']);
rmSync(campaignFolder, { recursive: true, force: true });
failed ||= ui.failed;
const results = [...nodeFigures, ...ui.results];

console.log('');
console.log(table(results));
console.log('');
console.log(`Machine: ${host.cpu}, ${host.cores} cores, ${host.ramGb} GB RAM; Node ${host.node}; ${host.chromium ?? 'no Chromium found'}; ${host.os}`);
console.log(`Load average at the start: ${host.loadAverage.join(', ')} (other work on the machine slows every figure)`);
const reference = join(root, 'bench', 'reference.json');
if (existsSync(reference)) {
  console.log('');
  console.log('Against bench/reference.json:');
  console.log(compare(results, JSON.parse(readFileSync(reference, 'utf8'))));
}
const held = results.filter((r) => r.target);
const within = held.filter((r) => r.pass).length;
console.log('');
const loaded = results.filter((r) => r.underLoad).length;
console.log(`${results.length} figures, ${within} within target, ${held.length - within} missed${loaded ? `; ${loaded} taken under load (the one-minute load average above the cores)` : ''}`);

mkdirSync(join(root, 'bench', 'results'), { recursive: true });
writeFileSync(join(root, 'bench', 'results', 'latest.json'), `${JSON.stringify({ startedAt, quick, only, machine: host, results }, null, 2)}\n`);
if (failed) process.exitCode = 1;
