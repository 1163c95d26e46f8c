// The chart geometry: bars stand on the baseline with heights in proportion to their values, ticks are nice whole
// numbers, and grouped bars (several keys per label) sit side by side inside their label's band.
import { describe, expect, it } from 'vitest';
import { barChart, type BarSeries } from './bars.ts';

const margin = { top: 10, right: 10, bottom: 30, left: 40 };
const box = { width: 440, height: 240, margin };
const single = (label: string, value: number, key = 'open'): BarSeries => ({ label, values: [{ key, value }] });

describe('bar chart geometry', () => {
  it('makes bar heights proportional to values, standing on the baseline', () => {
    const chart = barChart([single('S1', 2), single('S2', 4), single('S3', 10)], box);
    expect(chart.domain).toEqual([0, 10]);
    // The plot is 240 - 10 - 30 = 200 tall: 20 per unit.
    expect(chart.baseline).toBe(210);
    expect(chart.bars.map((b) => b.height)).toEqual([40, 80, 200]);
    for (const bar of chart.bars) expect(bar.y + bar.height).toBeCloseTo(chart.baseline, 1);
    expect(chart.bars[2]!.y).toBe(10); // the tallest reaches the top of the plot
    expect(chart.bars.map((b) => [b.label, b.key, b.value])).toEqual([['S1', 'open', 2], ['S2', 'open', 4], ['S3', 'open', 10]]);
  });

  it('rounds the axis up to a nice value and gives whole-number ticks from 0', () => {
    const chart = barChart([single('S1', 3), single('S2', 23)], box);
    expect(chart.domain).toEqual([0, 25]);
    expect(chart.ticks.map((t) => t.value)).toEqual([0, 5, 10, 15, 20, 25]);
    // Ticks on the same scale as the bars: 200 px for 25, so 8 px per unit.
    expect(chart.ticks.map((t) => t.y)).toEqual([210, 170, 130, 90, 50, 10]);
    expect(chart.bars[1]!.height).toBeCloseTo(23 * 8, 1);
    expect(barChart([single('S1', 47)], box).ticks.map((t) => t.value)).toEqual([0, 10, 20, 30, 40, 50]);
    expect(barChart([single('S1', 7)], box).ticks.map((t) => t.value)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
  });

  it('never offers half an injury: small counts get ticks 0, 1, 2', () => {
    const chart = barChart([single('S1', 1), single('S2', 2)], box);
    expect(chart.ticks.map((t) => t.value)).toEqual([0, 0.5, 1, 1.5, 2].filter(Number.isInteger));
    const fractional = barChart([single('S1', 1), single('S2', 2)], { ...box, integerTicks: false });
    expect(fractional.ticks.map((t) => t.value)).toContain(0.5);
  });

  it('draws an all-zero chart on a 0–1 axis with flat bars on the baseline', () => {
    const chart = barChart([single('S1', 0), single('S2', 0)], box);
    expect(chart.domain).toEqual([0, 1]);
    expect(chart.ticks.map((t) => t.value)).toEqual([0, 1]);
    expect(chart.bars).toHaveLength(2);
    for (const bar of chart.bars) {
      expect(bar.height).toBe(0);
      expect(bar.y).toBe(chart.baseline);
    }
  });

  it('handles no series at all', () => {
    const chart = barChart([], box);
    expect(chart.bars).toEqual([]);
    expect(chart.labels).toEqual([]);
    expect(chart.ticks.map((t) => t.value)).toEqual([0, 1]);
  });

  it('keeps a single bar inside the plot, centred under its label, and no wider than asked', () => {
    const chart = barChart([single('S1', 5)], { ...box, maxBarWidth: 48 });
    const [bar] = chart.bars;
    expect(bar!.width).toBe(48);
    expect(bar!.x + bar!.width / 2).toBeCloseTo(chart.labels[0]!.x, 1);
    expect(chart.labels[0]!.x).toBeCloseTo((40 + 430) / 2, 1);
    expect(bar!.height).toBe(200);
    const wide = barChart([single('S1', 5)], box);
    expect(wide.bars[0]!.width).toBeGreaterThan(48);
    expect(wide.bars[0]!.x).toBeGreaterThanOrEqual(40);
    expect(wide.bars[0]!.x + wide.bars[0]!.width).toBeLessThanOrEqual(430);
  });

  it('places many labels left to right, evenly, without overlapping bars', () => {
    const series = Array.from({ length: 40 }, (_, i) => single(`S${i + 1}`, (i * 7) % 11));
    const chart = barChart(series, { ...box, width: 1000 });
    expect(chart.labels).toHaveLength(40);
    const xs = chart.labels.map((l) => l.x);
    const gaps = xs.slice(1).map((x, i) => x - xs[i]!);
    for (const gap of gaps) expect(gap).toBeCloseTo(gaps[0]!, 1);
    for (let i = 1; i < chart.bars.length; i++) expect(chart.bars[i]!.x).toBeGreaterThan(chart.bars[i - 1]!.x + chart.bars[i - 1]!.width);
    expect(chart.bars[0]!.x).toBeGreaterThanOrEqual(40);
    expect(chart.bars.at(-1)!.x + chart.bars.at(-1)!.width).toBeLessThanOrEqual(990);
    expect(chart.domain).toEqual([0, 10]);
  });

  it('groups several keys per label side by side (damage per combatant per round)', () => {
    const round = (label: string, berrik: number, lotty: number, goblin: number): BarSeries => ({
      label, values: [{ key: 'Berrik', value: berrik }, { key: 'Lotty', value: lotty }, { key: 'Goblin', value: goblin }],
    });
    const chart = barChart([round('R1', 4, 0, 6), round('R2', 8, 3, 2)], box);
    expect(chart.keys).toEqual(['Berrik', 'Lotty', 'Goblin']);
    expect(chart.bars).toHaveLength(6);
    const r2 = chart.bars.filter((b) => b.label === 'R2');
    expect(r2.map((b) => b.key)).toEqual(['Berrik', 'Lotty', 'Goblin']);
    // Same width, left to right in key order, all inside R2's half of the plot.
    expect(new Set(r2.map((b) => b.width)).size).toBe(1);
    expect(r2[0]!.x).toBeLessThan(r2[1]!.x);
    expect(r2[1]!.x).toBeLessThan(r2[2]!.x);
    const r1Right = Math.max(...chart.bars.filter((b) => b.label === 'R1').map((b) => b.x + b.width));
    expect(r2[0]!.x).toBeGreaterThan(r1Right);
    // Heights in proportion across groups: 8 is twice 4, and 6 three times 2.
    const height = (label: string, key: string) => chart.bars.find((b) => b.label === label && b.key === key)!.height;
    expect(height('R2', 'Berrik')).toBeCloseTo(2 * height('R1', 'Berrik'), 1);
    expect(height('R1', 'Goblin')).toBeCloseTo(3 * height('R2', 'Goblin'), 1);
    // The group's label sits in the middle of its bars.
    const centre = (r2[0]!.x + r2[2]!.x + r2[2]!.width) / 2;
    expect(chart.labels[1]!.x).toBeCloseTo(centre, 1);
  });

  it('keeps a key missing from one label in its place, and honours a given key order', () => {
    const chart = barChart([
      { label: 'R1', values: [{ key: 'b', value: 2 }] },
      { label: 'R2', values: [{ key: 'a', value: 1 }, { key: 'b', value: 2 }] },
    ], { ...box, keys: ['a', 'b'] });
    const r1b = chart.bars.find((b) => b.label === 'R1' && b.key === 'b')!;
    const r2b = chart.bars.find((b) => b.label === 'R2' && b.key === 'b')!;
    const r2a = chart.bars.find((b) => b.label === 'R2' && b.key === 'a')!;
    expect(r2a.x).toBeLessThan(r2b.x);
    expect(r1b.x - chart.labels[0]!.x).toBeCloseTo(r2b.x - chart.labels[1]!.x, 1);
    expect(chart.bars.filter((b) => b.label === 'R1')).toHaveLength(1);
  });

  it('draws negative values below the baseline and treats non-numbers as zero', () => {
    const chart = barChart([single('a', -5), single('b', 5), single('c', Number.NaN)], box);
    expect(chart.domain).toEqual([-6, 6]);
    const [down, up, none] = chart.bars;
    expect(down!.y).toBeCloseTo(chart.baseline, 1);
    expect(down!.height).toBeCloseTo(up!.height, 1);
    expect(up!.y + up!.height).toBeCloseTo(chart.baseline, 1);
    expect(none!.value).toBe(0);
    expect(none!.height).toBe(0);
  });
});

describe('bars held narrower than their slot', () => {
  it('keep a group\'s bars together, centred under its label (one session\'s three bars, issue 28 point 10)', () => {
    const session = { label: 'S1', values: [{ key: 'open', value: 2 }, { key: 'gained', value: 1 }, { key: 'healed', value: 0 }] };
    const chart = barChart([session], { width: 1000, height: 240, margin, maxBarWidth: 36 });
    const [open, gained, healed] = chart.bars;
    expect(open!.width).toBe(36);
    // Side by side with a small gap, not a third of the plot apart.
    expect(gained!.x - (open!.x + open!.width)).toBeLessThanOrEqual(12);
    expect(healed!.x - (gained!.x + gained!.width)).toBeLessThanOrEqual(12);
    expect((open!.x + healed!.x + healed!.width) / 2).toBeCloseTo(chart.labels[0]!.x, 1);
  });
});
