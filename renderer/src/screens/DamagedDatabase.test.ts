// @vitest-environment jsdom
// The damaged-database screen: what happened in one sentence, where the file is, the newest good backup with its
// date and a button that restores it; without a good backup it says so and offers an empty database instead.
import { cleanup, fireEvent, render, screen } from '@testing-library/svelte';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { RecoveryStatus } from '../../../core/api/contract.ts';
import DamagedDatabase from './DamagedDatabase.svelte';

const api = vi.hoisted(() => ({ send: vi.fn() }));
vi.mock('../lib/api.ts', () => ({ send: api.send, onChanged: () => () => {} }));

afterEach(() => {
  cleanup();
  api.send.mockReset();
});

type Damaged = Extract<RecoveryStatus, { damaged: true }>;
const status = (extra: Partial<Damaged> = {}): Damaged => ({
  damaged: true,
  kind: 'corrupt',
  sentence: 'The campaign database file is damaged: its integrity check found broken pages.',
  detail: 'database disk image is malformed',
  databasePath: '/home/gm/.local/share/gm-workstation/gm-workstation.sqlite',
  backupsFolder: '/home/gm/.local/share/gm-workstation/backups',
  newestGoodBackup: { name: 'gm-workstation-20260314T180000000Z-auto.sqlite', createdAt: '2026-03-14T18:00:00.000Z', bytes: 90_000, reason: 'auto' },
  backupCount: 3,
  ...extra,
});

describe('damaged database screen', () => {
  it('says what happened, where the file is, and the newest good backup with its date', () => {
    render(DamagedDatabase, { status: status(), onrecovered: () => {} });
    expect(screen.getByText('The campaign database file is damaged: its integrity check found broken pages.')).toBeTruthy();
    expect(screen.getByText('/home/gm/.local/share/gm-workstation/gm-workstation.sqlite')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Newest good backup' })).toBeTruthy();
    expect(screen.getByText(new Date('2026-03-14T18:00:00.000Z').toLocaleString())).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Start an empty database' })).toBeNull();
  });

  it('restores that backup and hands over to the app', async () => {
    api.send.mockResolvedValue({ damagedKeptAs: '/x/gm-workstation.sqlite.damaged-20260315T090000000Z', restored: 'gm-workstation-20260314T180000000Z-auto.sqlite' });
    const onrecovered = vi.fn();
    render(DamagedDatabase, { status: status(), onrecovered });
    await fireEvent.click(screen.getByRole('button', { name: 'Restore this backup' }));
    await vi.waitFor(() => expect(onrecovered).toHaveBeenCalledTimes(1));
    expect(api.send).toHaveBeenCalledWith('recovery:restore', { name: 'gm-workstation-20260314T180000000Z-auto.sqlite' });
  });

  it('a refused restore stays on the screen, the button ready again', async () => {
    const { GmError } = await import('../../../core/api/contract.ts');
    api.send.mockRejectedValue(new GmError('That backup failed its integrity check too; choose another one.'));
    const onrecovered = vi.fn();
    render(DamagedDatabase, { status: status(), onrecovered });
    await fireEvent.click(screen.getByRole('button', { name: 'Restore this backup' }));
    await vi.waitFor(() => expect(api.send).toHaveBeenCalled());
    expect(onrecovered).not.toHaveBeenCalled();
    expect((screen.getByRole('button', { name: 'Restore this backup' }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('without a good backup says so and offers an empty database', async () => {
    api.send.mockResolvedValue({ damagedKeptAs: '/x/gm-workstation.sqlite.damaged-20260315T090000000Z', restored: null });
    const onrecovered = vi.fn();
    render(DamagedDatabase, { status: status({ newestGoodBackup: null, backupCount: 2 }), onrecovered });
    expect(screen.getByRole('heading', { name: 'No good backup' })).toBeTruthy();
    expect(screen.getByText('None of the 2 backups in /home/gm/.local/share/gm-workstation/backups passed its integrity check.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Restore this backup' })).toBeNull();
    await fireEvent.click(screen.getByRole('button', { name: 'Start an empty database' }));
    await vi.waitFor(() => expect(onrecovered).toHaveBeenCalledTimes(1));
    expect(api.send).toHaveBeenCalledWith('recovery:startEmpty', {});
  });

  it('with one backup that fails its check, says so of that one', () => {
    render(DamagedDatabase, { status: status({ newestGoodBackup: null, backupCount: 1 }), onrecovered: () => {} });
    expect(screen.getByText('The one backup in /home/gm/.local/share/gm-workstation/backups did not pass its integrity check.')).toBeTruthy();
  });

  it('a lost journal also offers to keep the database as it is; other damage never does', async () => {
    api.send.mockResolvedValue({ damagedKeptAs: null, restored: null });
    const onrecovered = vi.fn();
    render(DamagedDatabase, { status: status({ kind: 'walMissing', sentence: 'The campaign database was not closed normally, and its journal file (-wal) is gone.' }), onrecovered });
    expect(screen.getByRole('button', { name: 'Restore this backup' })).toBeTruthy();
    await fireEvent.click(screen.getByRole('button', { name: 'Keep this database' }));
    await vi.waitFor(() => expect(onrecovered).toHaveBeenCalledTimes(1));
    expect(api.send).toHaveBeenCalledWith('recovery:keep', {});
    cleanup();
    render(DamagedDatabase, { status: status(), onrecovered: () => {} });
    expect(screen.queryByRole('button', { name: 'Keep this database' })).toBeNull();
  });

  it("a journal set aside as another file's offers to keep the database as it is, and says the journal is kept", async () => {
    api.send.mockResolvedValue({ damagedKeptAs: null, restored: null });
    const onrecovered = vi.fn();
    const sentence = 'The journal file (-wal) beside the campaign database was written for another database file, so it was not applied: it is kept as /x/gm-workstation.sqlite.foreign-wal-20260315T090000000Z.';
    render(DamagedDatabase, { status: status({ kind: 'foreignWal', sentence }), onrecovered });
    expect(screen.getByText(sentence)).toBeTruthy();
    expect(screen.getByText('The database file')).toBeTruthy();
    expect(screen.getByText(/written for another database file \(another program's/)).toBeTruthy();
    await fireEvent.click(screen.getByRole('button', { name: 'Keep this database' }));
    await vi.waitFor(() => expect(onrecovered).toHaveBeenCalledTimes(1));
    expect(api.send).toHaveBeenCalledWith('recovery:keep', {});
  });
});
