// An encounter as one self-contained, printable HTML page: inline CSS, an inline SVG chart, no scripts, and a
// Content-Security-Policy that would block any script or remote load even if one slipped in. Every string a person
// typed is escaped with `htmlText` (& < > " '), in text and in attributes alike.
import { barChart, type BarSeries } from '../charts/bars.ts';
import { logByRound, outcomeText, roundTitle } from './encounter.ts';
import { plainText, type EncounterFacts } from './markdown.ts';
import { measureWords, totalsOf } from './summary.ts';
import type { EncounterExport, ExportLogLine, RoundSummary } from './types.ts';

/** Nothing may load or run: styles inline only, images only as data: URLs, no base or form targets. */
export const EXPORT_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'";

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Escapes the five characters that matter in HTML text and quoted attributes. */
export function escapeHtml(value: string): string {
  return HTML_SPECIAL.test(value) ? value.replace(/[&<>"']/g, (c) => ENTITIES[c]!) : value;
}
const HTML_SPECIAL = /[&<>"']/;

/** A user string as HTML text: whitespace and control characters collapsed (as in Markdown), then escaped. */
export const htmlText = (value: string): string => escapeHtml(plainText(value));

const STYLE = `
:root { color-scheme: light; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1a1a1a; background: #fff;
  max-width: 62rem; margin: 2rem auto; padding: 0 1rem; overflow-wrap: anywhere; }
h1 { font-size: 1.6rem; margin: 0 0 .3rem; }
h2 { font-size: 1.2rem; margin: 1.6rem 0 .5rem; padding-bottom: .2rem; border-bottom: 1px solid #bbb; break-after: avoid; }
h3 { font-size: 1.05rem; margin: 1.2rem 0 .4rem; break-after: avoid; }
.muted { color: #595959; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: .15rem 1rem; margin: .8rem 0; }
dl.facts dt { font-weight: 600; }
dl.facts dd { margin: 0; }
ol.log, ul.items { padding-left: 1.6rem; }
ol.log li, ul.items li { margin: .15rem 0; }
.rulings { color: #595959; font-size: .85em; }
table { border-collapse: collapse; width: 100%; margin: .6rem 0 1rem; font-size: .9em; break-inside: avoid; }
th, td { border: 1px solid #b3b3b3; padding: .25rem .45rem; text-align: left; vertical-align: top; }
th { background: #f0f0f0; }
.num { text-align: right; font-variant-numeric: tabular-nums; }
.down { font-weight: 600; }
figure { margin: 1rem 0; break-inside: avoid; }
svg.chart { display: block; max-width: 100%; height: auto; -webkit-print-color-adjust: exact; print-color-adjust: exact; }
svg.chart text { font: 11px system-ui, sans-serif; fill: #333; }
svg.chart .grid { stroke: #dcdcdc; }
svg.chart .axis { stroke: #555; }
ul.legend { list-style: none; padding: 0; margin: .4rem 0 0; display: flex; flex-wrap: wrap; gap: .3rem 1.2rem; }
ul.legend svg { vertical-align: -1px; margin-right: .35rem; -webkit-print-color-adjust: exact; print-color-adjust: exact; }
section.round { break-inside: avoid-page; }
p.notes { white-space: normal; }
@page { margin: 15mm; }
@media print {
  body { margin: 0; max-width: none; padding: 0; font-size: 10.5pt; }
  * { background: transparent !important; box-shadow: none !important; }
  th { border-bottom: 2px solid #555; }
  section.round.long { break-before: page; }
  section.round.long, section.round.long table { break-inside: auto; }
}
`;

/** A complete page: the CSP first in the head, the title escaped, the body as given (already escaped). */
export function htmlPage(title: string, body: string): string {
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${EXPORT_CSP}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="referrer" content="no-referrer">',
    `<title>${htmlText(title)}</title>`,
    `<style>${STYLE}</style>`,
    '</head>',
    '<body>',
    body,
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

/** A definition list of facts; values are escaped here. */
export function factsHtml(facts: readonly [string, string][]): string {
  return `<dl class="facts">${facts.map(([term, value]) => `<dt>${htmlText(term)}</dt><dd>${htmlText(value)}</dd>`).join('')}</dl>`;
}

/** A table; header cells are escaped here, body cells arrive escaped (they may hold the export's own markup). */
function tableHtml(head: readonly string[], rows: readonly (readonly (string | number)[])[], numeric: ReadonlySet<number>): string {
  const cell = (tag: 'th' | 'td', value: string | number, i: number) =>
    `<${tag}${numeric.has(i) ? ' class="num"' : ''}${tag === 'th' ? ' scope="col"' : ''}>${typeof value === 'number' ? String(value) : value}</${tag}>`;
  return [
    '<table>',
    `<thead><tr>${head.map((h, i) => cell('th', htmlText(h), i)).join('')}</tr></thead>`,
    `<tbody>${rows.map((r) => `<tr>${r.map((v, i) => cell('td', v, i)).join('')}</tr>`).join('')}</tbody>`,
    '</table>',
  ].join('');
}

/** One round's figures as a table (cells escaped here). */
export function summaryTableHtml(round: RoundSummary): string {
  const words = measureWords(round.measure);
  return tableHtml(
    ['Combatant', 'Side', words.dealt, words.taken, words.healed, 'Statuses at the end of the round', 'Down'],
    round.combatants.map((c) => [htmlText(c.name), htmlText(c.side), c.dealt, c.taken, c.healed, c.statuses.map(htmlText).join('; '), c.down ? '<span class="down">went down</span>' : '']),
    new Set([2, 3, 4]),
  );
}

/** The whole fight's figures per combatant. */
export function totalsTableHtml(summary: readonly RoundSummary[]): string {
  const words = measureWords(summary[0]?.measure ?? 'damage');
  return tableHtml(
    ['Combatant', 'Side', words.dealt, words.taken, words.healed, 'Went down in'],
    totalsOf(summary).map((c) => [htmlText(c.name), htmlText(c.side), c.dealt, c.taken, c.healed, c.downInRounds.map((r) => `round ${r}`).join(', ')]),
    new Set([2, 3, 4]),
  );
}

/** Okabe–Ito colours: told apart with colour-blindness and dark enough to print on white. */
const PALETTE = ['#0072B2', '#E69F00', '#009E73', '#CC79A7', '#D55E00', '#56B4E9', '#7A7A7A', '#1A1A1A'];

/**
 * Each combatant's harm taken per round as grouped bars (one group per round, one bar per combatant that took any),
 * with axis ticks, a `<title>` on the chart and on every bar, and a legend. Past eight combatants the colours repeat
 * as hatching, so no two bars look alike. `idPrefix` keeps ids unique when a page holds several charts.
 */
export function chartHtml(summary: readonly RoundSummary[], idPrefix = 'chart'): string {
  if (summary.length === 0) return '';
  const words = measureWords(summary[0]!.measure);
  const totals = totalsOf(summary).filter((c) => c.taken > 0);
  if (totals.length === 0) return `<p class="muted">${summary[0]!.measure === 'loads' ? 'Nobody took any load in this fight.' : 'Nobody took damage in this fight.'}</p>`;
  const keys = totals.map((c) => c.id);
  const names = new Map(totals.map((c) => [c.id, c.name]));
  const series: BarSeries[] = summary.map((r) => ({ label: `R${r.round}`, values: r.combatants.map((c) => ({ key: c.id, value: c.taken })) }));
  const perGroup = Math.max(44, keys.length * 14 + 14);
  const width = Math.round(Math.min(960, Math.max(360, 70 + summary.length * perGroup)));
  const height = 260;
  const chart = barChart(series, { width, height, keys, margin: { left: 44, bottom: 34 }, maxBarWidth: 28 });
  const fill = (keyIndex: number) => (keyIndex < PALETTE.length ? PALETTE[keyIndex]! : `url(#${idPrefix}-hatch-${keyIndex % PALETTE.length})`);
  const hatches = keys.length > PALETTE.length
    ? `<defs>${PALETTE.map((colour, i) => `<pattern id="${idPrefix}-hatch-${i}" patternUnits="userSpaceOnUse" width="6" height="6" patternTransform="rotate(45)"><rect width="6" height="6" fill="#ffffff"/><rect width="3" height="6" fill="${colour}"/></pattern>`).join('')}</defs>`
    : '';
  const titleId = `${idPrefix}-title`;
  const unit = summary[0]!.measure === 'loads' ? 'loads' : 'damage';
  const svg = [
    `<svg class="chart" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-labelledby="${titleId}">`,
    `<title id="${titleId}">${htmlText(`${words.chart}, per combatant`)}</title>`,
    hatches,
    ...chart.ticks.map((t) => `<line class="grid" x1="${chart.plot.left}" x2="${chart.plot.right}" y1="${t.y}" y2="${t.y}"/><text x="${chart.plot.left - 6}" y="${t.y}" dy="0.32em" text-anchor="end">${t.value}</text>`),
    `<line class="axis" x1="${chart.plot.left}" x2="${chart.plot.left}" y1="${chart.plot.top}" y2="${chart.plot.bottom}"/>`,
    `<line class="axis" x1="${chart.plot.left}" x2="${chart.plot.right}" y1="${chart.baseline}" y2="${chart.baseline}"/>`,
    ...chart.labels.map((l) => `<text x="${l.x}" y="${chart.plot.bottom + 16}" text-anchor="middle">${htmlText(l.label)}</text>`),
    `<text x="12" y="${(chart.plot.top + chart.plot.bottom) / 2}" text-anchor="middle" transform="rotate(-90 12 ${(chart.plot.top + chart.plot.bottom) / 2})">${unit}</text>`,
    ...chart.bars
      .filter((b) => b.height > 0)
      .map((b) => `<rect x="${b.x}" y="${b.y}" width="${b.width}" height="${b.height}" fill="${fill(b.keyIndex)}" stroke="#333" stroke-width="0.5"><title>${htmlText(`${names.get(b.key) ?? ''}, round ${b.label.slice(1)}: ${b.value} ${unit} taken`)}</title></rect>`),
    '</svg>',
  ].join('');
  const legend = `<ul class="legend">${keys.map((key, i) => `<li><svg width="12" height="12" viewBox="0 0 12 12" aria-hidden="true">${i >= PALETTE.length ? `<defs><pattern id="${idPrefix}-legend-${i}" patternUnits="userSpaceOnUse" width="6" height="6" patternTransform="rotate(45)"><rect width="6" height="6" fill="#ffffff"/><rect width="3" height="6" fill="${PALETTE[i % PALETTE.length]}"/></pattern></defs>` : ''}<rect width="12" height="12" fill="${i >= PALETTE.length ? `url(#${idPrefix}-legend-${i})` : PALETTE[i]}" stroke="#333" stroke-width="0.5"/></svg>${htmlText(names.get(key) ?? '')}</li>`).join('')}</ul>`;
  return `<figure>${svg}<figcaption>${legend}</figcaption></figure>`;
}

function logItemHtml(line: ExportLogLine): string {
  const rulings = line.rulings?.length ? ` <span class="rulings">(${line.rulings.map(htmlText).join(', ')})</span>` : '';
  return `<li>${htmlText(line.text)}${rulings}</li>`;
}

/** A round longer than this starts on a new printed page; shorter ones only avoid being split. */
const LONG_ROUND = 30;

export function encounterHtml(exported: EncounterExport, facts: EncounterFacts): string {
  const { encounter, summary } = exported;
  const body: string[] = [
    '<header>',
    `<h1>${htmlText(encounter.name)}</h1>`,
    '<p class="muted">Encounter log from GM Workstation</p>',
    factsHtml([
      ['Campaign', encounter.campaignName],
      ['Ruleset', facts.rulesetName],
      ['Rounds', String(encounter.round)],
      ['Outcome', outcomeText(encounter.phase, encounter.round, facts.outcome)],
      ['Events', String(exported.events.length)],
      ['Exported', exported.exportedAt],
    ]),
    '</header>',
  ];
  if (summary.length) {
    body.push('<section class="totals">', `<h2>${htmlText(measureWords(summary[0]!.measure).chart)}</h2>`, chartHtml(summary), '<h3>Totals</h3>', totalsTableHtml(summary), '</section>');
  }
  for (const { round, lines } of logByRound(exported)) {
    const figures = summary.find((s) => s.round === round);
    body.push(
      `<section class="round${lines.length > LONG_ROUND ? ' long' : ''}">`,
      `<h2>${htmlText(roundTitle(round, summary))}</h2>`,
      lines.length ? `<ol class="log">${lines.map(logItemHtml).join('')}</ol>` : '<p class="muted">Nothing was logged in this round.</p>',
      figures ? summaryTableHtml(figures) : '',
      '</section>',
    );
  }
  return htmlPage(`${encounter.name} — encounter log`, body.join('\n'));
}
