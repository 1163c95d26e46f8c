// Test helpers for recovery rules: apply an untrusted event the way the ledger does (parse, apply, fold), and
// read a refusal while proving it changed nothing.
import { expect } from 'vitest';
import { applyRecovery, foldChange, parseRecoveryEvent } from './kernel.ts';
import { LedgerRefusal, type CampaignWorld, type RecoveryRules } from './types.ts';

/** Parses and applies one event; the outcome, its log and change, and the world after it. */
export function applyEvent(rules: RecoveryRules, world: CampaignWorld, raw: unknown) {
  const outcome = applyRecovery(rules, world, parseRecoveryEvent(rules, raw));
  return { outcome, log: outcome.log, change: outcome.change, world: foldChange(world, outcome.change) };
}

/** The sentence of a refused event; fails unless it is a ledger refusal that left the world exactly as it was. */
export function refusalOf(rules: RecoveryRules, world: CampaignWorld, raw: unknown): string {
  const before = structuredClone(world);
  let caught: unknown = null;
  try {
    applyEvent(rules, world, raw);
  } catch (error) {
    caught = error;
  }
  expect(caught, `expected ${JSON.stringify(raw).slice(0, 80)} to be refused`).toBeInstanceOf(LedgerRefusal);
  expect(world).toEqual(before);
  return (caught as Error).message;
}
