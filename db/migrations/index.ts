// Numbered, forward-only migrations. Each is a .sql file (bundled as text) applied once, in order, in its own
// transaction, and recorded in schema_migrations. Never edit a released migration: add the next number.
import initial from './0001_initial.sql';
import consequences from './0002_consequences.sql';
import ledger from './0003_ledger.sql';
import ledgerReads from './0004_ledger_reads.sql';
import injurySourceText from './0005_injury_source_text.sql';
import carryAdjustments from './0006_carry_adjustments.sql';
import rosterChanges from './0007_roster_changes.sql';
import encountersByCreation from './0008_encounters_by_creation.sql';
import rosterBackfill from './0009_roster_backfill.sql';
import historyReads from './0010_history_reads.sql';
import carryEnding from './0011_carry_ending.sql';
import campaignConditions from './0012_campaign_conditions.sql';
import logLineNumbers from './0013_log_line_numbers.sql';
import entryLeads from './0014_entry_leads.sql';
import historyIndexes from './0015_history_indexes.sql';
import healedRecords from './0016_healed_records.sql';
import recordTreatments from './0017_record_treatments.sql';
import ledgerEntryRows from './0018_ledger_entry_rows.sql';
import snapshotRows from './0019_snapshot_rows.sql';

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export const MIGRATIONS: readonly Migration[] = [
  { version: 1, name: 'initial', sql: initial },
  { version: 2, name: 'consequences', sql: consequences },
  { version: 3, name: 'ledger', sql: ledger },
  { version: 4, name: 'ledger reads', sql: ledgerReads },
  { version: 5, name: 'injury source text', sql: injurySourceText },
  { version: 6, name: 'carry adjustments', sql: carryAdjustments },
  { version: 7, name: 'roster changes', sql: rosterChanges },
  { version: 8, name: 'encounters by creation', sql: encountersByCreation },
  { version: 9, name: 'roster backfill', sql: rosterBackfill },
  { version: 10, name: 'history reads', sql: historyReads },
  { version: 11, name: 'carry ending', sql: carryEnding },
  { version: 12, name: 'campaign conditions', sql: campaignConditions },
  { version: 13, name: 'log line numbers', sql: logLineNumbers },
  { version: 14, name: 'entry leads', sql: entryLeads },
  { version: 15, name: 'history indexes', sql: historyIndexes },
  { version: 16, name: 'healed records', sql: healedRecords },
  { version: 17, name: 'record treatments', sql: recordTreatments },
  { version: 18, name: 'ledger entry rows', sql: ledgerEntryRows },
  { version: 19, name: 'snapshot rows', sql: snapshotRows },
];
