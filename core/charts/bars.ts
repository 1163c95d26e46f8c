// Bar chart geometry as plain numbers: the renderer draws it as inline SVG, and the same numbers can be written
// out as an SVG string for a script-free HTML export. No DOM here, only d3-scale's arithmetic.
import { scaleBand, scaleLinear } from 'd3-scale';

/** One label on the x axis (a session, a round) with one value per key (open/gained/healed, one per combatant). */
export interface BarSeries {
  label: string;
  values: { key: string; value: number }[];
}

export interface ChartMargin {
  top: number;
  right: number;
  bottom: number;
  left: number;
}

export interface BarChartOptions {
  width: number;
  height: number;
  margin?: Partial<ChartMargin>;
  /** The keys in drawing order within each group; by default, in the order they first appear. */
  keys?: readonly string[];
  /** About how many y ticks to aim for (d3's `ticks(count)`). */
  tickCount?: number;
  /** Keep only whole-number ticks (counts, damage): no "0.5 injuries". On by default. */
  integerTicks?: boolean;
  /** Space between groups, as a fraction of each group's step (d3 band padding). */
  groupPadding?: number;
  /** Space between bars within a group, as a fraction of each bar's step. */
  barPadding?: number;
  /** The widest a bar may be: a single bar is not stretched across the whole chart. */
  maxBarWidth?: number;
}

export interface Bar {
  x: number;
  y: number;
  width: number;
  height: number;
  key: string;
  label: string;
  value: number;
  /** Which series (x label) and which key the bar belongs to, by position. */
  labelIndex: number;
  keyIndex: number;
}

export interface YTick {
  value: number;
  y: number;
}

export interface XLabel {
  label: string;
  /** The centre of the label's group of bars. */
  x: number;
}

export interface BarChart {
  width: number;
  height: number;
  margin: ChartMargin;
  /** The plot area inside the margins. */
  plot: { left: number; right: number; top: number; bottom: number };
  keys: string[];
  bars: Bar[];
  ticks: YTick[];
  labels: XLabel[];
  /** The y position of the value 0: where bars stand and the x axis runs. */
  baseline: number;
  /** The y axis's domain after `nice()`. */
  domain: [number, number];
}

const DEFAULT_MARGIN: ChartMargin = { top: 12, right: 12, bottom: 28, left: 36 };

const finite = (value: number): number => (Number.isFinite(value) ? value : 0);

/** Coordinates to a hundredth of a pixel: finer is invisible, and the exported SVG stays short and stable. */
const px = (value: number): number => Math.round(value * 100) / 100 || 0;

/** Lays out grouped bars: one group per series label, one bar per key within it. */
export function barChart(series: readonly BarSeries[], options: BarChartOptions): BarChart {
  const margin: ChartMargin = { ...DEFAULT_MARGIN, ...options.margin };
  const { width, height } = options;
  const plot = {
    left: margin.left,
    right: Math.max(margin.left, width - margin.right),
    top: margin.top,
    bottom: Math.max(margin.top, height - margin.bottom),
  };
  const keys = options.keys ? [...options.keys] : [...new Set(series.flatMap((s) => s.values.map((v) => v.key)))];

  // Groups are placed by index, so two series with the same label still get a place each.
  const groups = scaleBand<number>()
    .domain(series.map((_, i) => i))
    .range([plot.left, plot.right])
    .paddingInner(options.groupPadding ?? 0.25)
    .paddingOuter((options.groupPadding ?? 0.25) / 2);
  const inGroup = scaleBand<string>()
    .domain(keys)
    .range([0, groups.bandwidth()])
    .paddingInner(keys.length > 1 ? (options.barPadding ?? 0.1) : 0);

  const values = series.flatMap((s) => s.values.map((v) => finite(v.value)));
  const low = Math.min(0, ...values);
  const high = Math.max(0, ...values);
  const tickCount = options.tickCount ?? 5;
  // An all-zero chart still gets an axis from 0 to 1, so the bars sit on a visible baseline.
  const y = scaleLinear()
    .domain(low === high ? [0, 1] : [low, high])
    .range([plot.bottom, plot.top])
    .nice(tickCount);
  const [domainLow, domainHigh] = y.domain() as [number, number];
  const baseline = px(y(0));

  const slot = inGroup.bandwidth();
  const barWidth = Math.min(slot, options.maxBarWidth ?? Infinity);
  // Bars held narrower than their slot stay together, centred in their group: not each alone in the middle of its
  // own slot, scattered across a wide group (one session's three bars across a whole screen).
  const gap = keys.length > 1 ? barWidth * (options.barPadding ?? 0.1) * 2.5 : 0;
  const packed = barWidth < slot;
  const packedStart = (groups.bandwidth() - (keys.length * barWidth + (keys.length - 1) * gap)) / 2;
  const bars: Bar[] = [];
  series.forEach((s, labelIndex) => {
    for (const { key, value: raw } of s.values) {
      const keyIndex = keys.indexOf(key);
      if (keyIndex < 0) continue;
      const value = finite(raw);
      const top = y(Math.max(value, 0));
      const bottom = y(Math.min(value, 0));
      bars.push({
        x: px(groups(labelIndex)! + (packed ? packedStart + keyIndex * (barWidth + gap) : inGroup(key)! + (slot - barWidth) / 2)),
        y: px(top),
        width: px(barWidth),
        height: px(bottom - top),
        key,
        label: s.label,
        value,
        labelIndex,
        keyIndex,
      });
    }
  });

  const integerTicks = options.integerTicks ?? true;
  const ticks = y
    .ticks(tickCount)
    .filter((value) => !integerTicks || Number.isInteger(value))
    .map((value) => ({ value, y: px(y(value)) }));

  const labels = series.map((s, i) => ({ label: s.label, x: px(groups(i)! + groups.bandwidth() / 2) }));

  return { width, height, margin, plot, keys, bars, ticks, labels, baseline, domain: [domainLow, domainHigh] };
}
