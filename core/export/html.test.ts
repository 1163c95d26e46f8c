// @vitest-environment jsdom
// The HTML export: one self-contained printable page — a strict CSP, inline CSS with print rules, no scripts and
// nothing loaded from anywhere — with every user string escaped, a summary table per round, and an SVG chart of
// harm per combatant per round (ticks, titles, legend, printable colours). Parsed with the DOM to check that hostile
// names stay text.
import { describe, expect, it } from 'vitest';
import { EncounterEngine } from '../encounter/kernel.ts';
import type { CombatantSeed, GmEvent } from '../encounter/types.ts';
import { defaultOptions } from '../rulesets/options.ts';
import { findRuleset } from '../rulesets/registry.ts';
import { defaultSheet } from '../rulesets/sheet.ts';
import { buildEncounterExport } from './encounter.ts';
import { chartHtml, encounterHtml, escapeHtml, EXPORT_CSP, htmlText } from './html.ts';
import { plainText } from './markdown.ts';
import { NAME_MAX } from '../encounter/schemas.ts';
import type { RoundSummary } from './types.ts';

/** An Enigma fight between the named combatants (the first on the party's side), exported as HTML. */
function fight(names: string[], extra: { encounter?: string; campaign?: string; outcome?: string } = {}) {
  const enigma = findRuleset('enigma')!;
  const seeds: CombatantSeed[] = names.map((name, i) => ({ id: `c${i}`, name, side: i === 0 ? 'party' : 'gm', characterId: null, sheet: defaultSheet(enigma.sheet) as CombatantSeed['sheet'] }));
  const input = { options: defaultOptions(enigma.options), carried: {} };
  const engine = EncounterEngine.create(enigma.encounter, input);
  const events: GmEvent[] = [
    { type: 'ADD_COMBATANTS', combatants: seeds },
    { type: 'START' },
    { type: 'AREA_DAMAGE', targets: seeds.slice(1).map((s, i) => ({ targetId: s.id, amount: 1 + (i % 3) })), source: extra.outcome ?? 'a fireball' },
    { type: 'APPLY_DAMAGE', targetId: 'c0', amount: 2, source: 'a trap' },
    { type: 'END_COMBAT', outcome: extra.outcome ?? 'Victory' },
  ];
  const stored = events.map((event, i) => ({ seq: i + 1, event, lines: engine.apply(event) }));
  const view = engine.view();
  const { export: file } = buildEncounterExport(
    { id: 'e', name: extra.encounter ?? 'Toll bridge', campaignName: extra.campaign ?? 'Vault', rulesetId: 'enigma', createdAt: 'then', phase: view.phase, round: view.round, input, events: stored },
    enigma.encounter,
    '2026-11-21T09:00:00.000Z',
  );
  const html = encounterHtml(file, { rulesetName: 'Enigma', outcome: view.outcome ?? null });
  return { file, html, doc: new DOMParser().parseFromString(html, 'text/html') };
}

/** Nothing in the page can run or load: no script-capable elements, no event handlers, no URLs to fetch. */
function expectInert(doc: Document) {
  expect(doc.querySelectorAll('script, img, iframe, object, embed, link, base, form, input, button, a, video, audio, source, foreignObject, use, image')).toHaveLength(0);
  for (const element of doc.querySelectorAll('*')) {
    for (const attribute of element.attributes) {
      expect(attribute.name, `<${element.localName} ${attribute.name}>`).not.toMatch(/^on/i);
      expect(['src', 'href', 'xlink:href', 'action', 'formaction', 'srcset', 'background', 'poster', 'data']).not.toContain(attribute.name);
      expect(attribute.value, `<${element.localName} ${attribute.name}>`).not.toMatch(/javascript:|https?:\/\/(?!www\.w3\.org\/2000\/svg$)/i);
    }
  }
}

const HOSTILE = ['<script>alert(1)</script>', '"><img src=x onerror=alert(1)>', "'><svg onload=alert(1)>", 'a | b `c` & d', '</title><script>alert(2)</script>', '</style><script>alert(3)</script>'];

describe('HTML escaping', () => {
  it('escapes the five characters that matter in text and attributes', () => {
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe('&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;');
    expect(htmlText('two\nlines\t<b>')).toBe('two lines &lt;b&gt;');
  });

  it('escapes exactly as one replacement of the five characters would, for any mix of characters', () => {
    const entities: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
    const plainly = (value: string) => value.replace(/[&<>"']/g, (c) => entities[c]!);
    const pieces = [' ', '\n', 'a', '&', '<', '>', '"', "'", '&amp;', '→', ';', '#'];
    let state = 7;
    const next = () => (state = (state * 1103515245 + 12345) % 2147483648);
    for (let i = 0; i < 5000; i++) {
      const value = Array.from({ length: next() % 8 }, () => pieces[next() % pieces.length]).join('');
      expect(escapeHtml(value), JSON.stringify(value)).toBe(plainly(value));
      expect(htmlText(value), JSON.stringify(value)).toBe(plainly(plainText(value)));
    }
  });
});

describe('the encounter as an HTML page', () => {
  it('is one page with a strict CSP first in the head, inline print-friendly CSS, and no scripts', () => {
    const { html, doc } = fight(['Berrik', 'Goblin 1']);
    expect(html.startsWith('<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<meta http-equiv="Content-Security-Policy"')).toBe(true);
    const csp = doc.querySelector('meta[http-equiv="Content-Security-Policy"]')!.getAttribute('content')!;
    expect(csp).toBe(EXPORT_CSP);
    expect(csp.startsWith("default-src 'none'; style-src 'unsafe-inline'; img-src data:")).toBe(true);
    expect(csp).not.toMatch(/script-src|unsafe-eval/);
    const style = doc.querySelector('style')!.textContent!;
    expect(style).toContain('@media print');
    expect(style).toMatch(/@media print \{[^@]*background: transparent !important/);
    expect(style).toContain('break-inside: avoid');
    expect(html).not.toMatch(/<script|https?:\/\/(?!www\.w3\.org\/2000\/svg)/i);
    expectInert(doc);
  });

  it('shows the facts, a section per round with its log and rulings, and a summary table', () => {
    const { doc, file } = fight(['Berrik', 'Goblin 1', 'Goblin 2']);
    expect(doc.querySelector('h1')!.textContent).toBe('Toll bridge');
    expect(doc.title).toBe('Toll bridge — encounter log');
    const facts = Object.fromEntries([...doc.querySelectorAll('dl.facts dt')].map((dt) => [dt.textContent, dt.nextElementSibling!.textContent]));
    expect(facts).toEqual({ Campaign: 'Vault', Ruleset: 'Enigma', Rounds: '1', Outcome: 'Victory', Events: '5', Exported: '2026-11-21T09:00:00.000Z' });
    const rounds = [...doc.querySelectorAll('section.round')];
    expect(rounds.map((s) => s.querySelector('h2')!.textContent)).toEqual(['Before the fight', 'Round 1']);
    const items = [...rounds[1]!.querySelectorAll('ol.log li')].map((li) => li.textContent);
    expect(items).toEqual(file.log.filter((l) => l.round === 1).map((l) => `${l.text}${l.rulings?.length ? ` (${l.rulings.join(', ')})` : ''}`));
    const table = rounds[1]!.querySelector('table')!;
    expect([...table.querySelectorAll('th')].map((th) => th.textContent)).toEqual(['Combatant', 'Side', 'Damage dealt', 'Damage taken', 'Healed', 'Statuses at the end of the round', 'Down']);
    const rows = [...table.querySelectorAll('tbody tr')].map((tr) => [...tr.querySelectorAll('td')].slice(0, 5).map((td) => td.textContent));
    expect(rows).toEqual([['Berrik', 'Party', '0', '2', '0'], ['Goblin 1', 'GM', '0', '1', '0'], ['Goblin 2', 'GM', '0', '2', '0']]);
  });

  it('draws the damage taken per combatant per round as an SVG chart with ticks, titles and a legend', () => {
    const { doc } = fight(['Berrik', 'Goblin 1', 'Goblin 2']);
    const svg = doc.querySelector('svg.chart')!;
    expect(svg.getAttribute('role')).toBe('img');
    expect(svg.querySelector(':scope > title')!.textContent).toBe('Damage taken per round, per combatant');
    const bars = [...svg.querySelectorAll('rect')];
    expect(bars.map((b) => b.querySelector('title')!.textContent)).toEqual(['Berrik, round 1: 2 damage taken', 'Goblin 1, round 1: 1 damage taken', 'Goblin 2, round 1: 2 damage taken']);
    expect(new Set(bars.map((b) => b.getAttribute('fill'))).size).toBe(3);
    const ticks = [...svg.querySelectorAll('text[text-anchor="end"]')].map((t) => t.textContent);
    expect(ticks[0]).toBe('0');
    expect(ticks.every((t) => Number.isInteger(Number(t)))).toBe(true);
    expect([...svg.querySelectorAll('text[text-anchor="middle"]')].map((t) => t.textContent)).toContain('R1');
    expect([...doc.querySelectorAll('ul.legend li')].map((li) => li.textContent)).toEqual(['Berrik', 'Goblin 1', 'Goblin 2']);
  });

  it('tells bars apart past eight combatants with hatching, and says so when nobody took anything', () => {
    const names = ['Hero', ...Array.from({ length: 11 }, (_, i) => `Rat ${i + 1}`)];
    const { doc } = fight(names);
    const fills = [...doc.querySelectorAll('svg.chart rect[fill]')].filter((r) => r.querySelector('title')).map((r) => r.getAttribute('fill'));
    expect(fills).toHaveLength(12);
    expect(new Set(fills).size).toBe(12);
    expect(fills.slice(8).every((f) => /^url\(#chart-hatch-\d\)$/.test(f!))).toBe(true);
    expect(doc.querySelectorAll('svg.chart pattern')).toHaveLength(8);
    const quiet: RoundSummary[] = [{ round: 1, measure: 'loads', combatants: [{ id: 'a', name: 'Ash', side: 'Party', dealt: 0, taken: 0, healed: 0, statuses: [], down: false }] }];
    expect(chartHtml(quiet)).toBe('<p class="muted">Nobody took any load in this fight.</p>');
    expect(chartHtml([])).toBe('');
  });

  for (const hostile of [...HOSTILE, 'x'.repeat(10_000), '"><img src=x onerror=alert(1)>'.repeat(400)]) {
    it(`keeps a hostile name inert: ${JSON.stringify(hostile.slice(0, 40))}${hostile.length > 40 ? ` (${hostile.length} characters)` : ''}`, () => {
      // Combatant names and the outcome are parts of events, which the engine reads with the ruleset's schema (a name
      // of at most 80 characters, a text of at most 500): those are as long as an event may carry them.
      const named = hostile.slice(0, NAME_MAX - 2);
      const { doc, html } = fight([named, `${named} 1`], { encounter: hostile, campaign: hostile, outcome: hostile.slice(0, 500) });
      expectInert(doc);
      expect(html).not.toMatch(/<(script|img|svg onload|\/title><script|\/style><script)/i);
      expect(doc.querySelector('h1')!.textContent).toBe(plainText(hostile));
      expect(doc.title).toBe(`${plainText(hostile)} — encounter log`);
      expect(doc.querySelector('style')!.textContent).not.toContain('alert');
      const names = [...doc.querySelectorAll('section.round table tbody tr td:first-child')].map((td) => td.textContent);
      expect(names).toContain(plainText(named));
      expect([...doc.querySelectorAll('ul.legend li')].map((li) => li.textContent)).toContain(`${plainText(named)} 1`);
      expect([...doc.querySelectorAll('svg.chart rect title')].map((t) => t.textContent)).toContain(`${plainText(named)}, round 1: 2 damage taken`);
    });
  }
});
