// The node side of `npm run bench`: every section in order, each returning its figures. scripts/bench.mjs bundles
// this module and runs it; bench/bench.test.ts runs it in quick mode.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { benchExport } from './export.ts';
import { benchReplay } from './replay.ts';
import type { BenchResult } from './result.ts';
import { benchAppend, benchCampaign, benchResume } from './store-figures.ts';
import type { BenchOptions } from './result.ts';

export const SECTIONS = ['Replay', 'Append', 'Resume', 'Campaign', 'Export'] as const;
export type Section = (typeof SECTIONS)[number];

const RUNNERS: Record<Section, (options: BenchOptions) => BenchResult[] | Promise<BenchResult[]>> = {
  Replay: benchReplay,
  Append: benchAppend,
  Resume: benchResume,
  Campaign: benchCampaign,
  Export: benchExport,
};

export interface NodeBenchOptions {
  quick: boolean;
  /** Run only these sections (all when empty). */
  only?: readonly string[];
  note?: (text: string) => void;
  /** Called with each section's figures as soon as it is done. */
  onResults?: (results: BenchResult[]) => void;
  /** Where the Campaign section writes its campaign, kept for the caller (else in the temporary folder). */
  campaignAt?: string | undefined;
}

/** Runs the node benchmarks in a temporary folder (removed afterwards) and returns every figure. */
export async function runNodeBenchmarks(options: NodeBenchOptions): Promise<BenchResult[]> {
  const wanted = options.only?.length ? SECTIONS.filter((s) => options.only!.some((o) => o.toLowerCase() === s.toLowerCase())) : SECTIONS;
  const folder = mkdtempSync(join(tmpdir(), 'gmw-bench-'));
  const results: BenchResult[] = [];
  try {
    for (const section of wanted) {
      const figures = await RUNNERS[section]({ quick: options.quick, folder, note: options.note ?? (() => undefined), campaignAt: options.campaignAt });
      options.onResults?.(figures);
      results.push(...figures);
    }
  } finally {
    // GMW_BENCH_KEEP=1 keeps the generated databases, to profile a handler on them afterwards.
    if (process.env['GMW_BENCH_KEEP'] === '1') options.note?.(`Kept the benchmark databases in ${folder}`);
    else rmSync(folder, { recursive: true, force: true });
  }
  return results;
}
