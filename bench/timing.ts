// Timing helpers: samples in milliseconds, percentiles, and runs repeated until they have enough samples.

/** The p-th percentile (0–100) of samples, nearest rank. */
export function percentile(samples: readonly number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank]!;
}

export const median = (samples: readonly number[]): number => percentile(samples, 50);

/** Milliseconds `work` takes once. */
export function timeOnce(work: () => unknown): number {
  const start = performance.now();
  work();
  return performance.now() - start;
}

/**
 * Runs `work` `warmup` times untimed, then at least `runs` times and until `minMs` have passed; returns every
 * timed run in milliseconds.
 */
/** Like `sample` for several pieces of work that take turns run by run; their samples in the same order. */
export function alternating(works: readonly (() => unknown)[], { runs = 5, warmup = 1 }: { runs?: number; warmup?: number } = {}): number[][] {
  for (let i = 0; i < warmup; i++) for (const work of works) work();
  const samples = works.map(() => [] as number[]);
  for (let run = 0; run < runs; run++) works.forEach((work, i) => samples[i]!.push(timeOnce(work)));
  return samples;
}

export function sample(work: () => unknown, { runs = 5, minMs = 0, warmup = 1 }: { runs?: number; minMs?: number; warmup?: number } = {}): number[] {
  for (let i = 0; i < warmup; i++) work();
  const samples: number[] = [];
  const start = performance.now();
  while (samples.length < runs || performance.now() - start < minMs) samples.push(timeOnce(work));
  return samples;
}
