// One figure of `npm run bench`, shared by the node benchmarks (bench/*.ts) and the UI benchmarks (bench/ui/): a
// measured value beside a baseline measured in the same run, their ratio, and the target the figure is held to.

export interface BenchTarget {
  /** How `value` or `ratio` must compare with the target value. */
  op: '>=' | '<=';
  value: number;
  /** Which number the target applies to. */
  of: 'ratio' | 'value';
}

export interface BenchResult {
  /** The part of the suite: Replay, Append, Resume, Campaign, Export (and the UI's own sections). */
  section: string;
  /** What was measured, with its size: "enigma events/s (200 combatants)". */
  name: string;
  value: number;
  /** events/s, ms, MB... */
  unit: string;
  /** The same work done the plainest way, in the same run and the same unit. */
  baseline: { name: string; value: number };
  /** value / baseline.value */
  ratio: number;
  /** Absent: the figure is reported, not held to a target. */
  target?: BenchTarget;
  /** Whether the target is met (true when there is none). */
  pass: boolean;
  /** What else the reader needs, e.g. "taken under load 3.2 on 2 cores" (the UI figures). */
  note?: string;
  /** The UI figures: the one-minute load average when their section began and ended, and the machine's cores. */
  load?: { oneMinute: number[]; cores: number };
  /** The UI figures: the one-minute load was above the number of cores at either end of their section. */
  underLoad?: boolean;
}

/** A result with its ratio and pass computed from the value, the baseline and the target. */
export function benchResult(fields: Omit<BenchResult, 'ratio' | 'pass'>): BenchResult {
  const ratio = fields.value / fields.baseline.value;
  const checked = fields.target ? (fields.target.of === 'ratio' ? ratio : fields.value) : 0;
  const pass = !fields.target || (fields.target.op === '>=' ? checked >= fields.target.value : checked <= fields.target.value);
  return { ...fields, ratio, pass };
}

/** Options every node benchmark takes. */
export interface BenchOptions {
  /** Small sizes: a smoke run, figures not comparable with a full run. */
  quick: boolean;
  /** A folder for temporary databases (removed by the caller). */
  folder: string;
  /** Progress notes for the person watching (not results). */
  note(text: string): void;
  /** Where the Campaign section writes its generated campaign, when the caller keeps it (the UI's screens use it). */
  campaignAt?: string | undefined;
}
