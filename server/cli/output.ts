// Where gmw's output goes: data on stdout, messages and progress on stderr, files written whole or not at all.
import { existsSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { FileError } from './args.ts';

/** The process's streams and environment, replaceable in tests. */
export interface CliIo {
  /** Data (what a script pipes on), written as given. */
  stdout(text: string): void;
  /** One message line; the newline is added. */
  stderr(line: string): void;
  stderrIsTTY: boolean;
  env: NodeJS.ProcessEnv;
  cwd: string;
}

/** Progress lines for long work: on stderr, only on a terminal or with --progress, never on stdout. */
export class Progress {
  constructor(
    private readonly io: CliIo,
    readonly enabled: boolean,
  ) {}

  say(line: string): void {
    if (this.enabled) this.io.stderr(line);
  }
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** The reason of a Node file error as a few words ("no such file or directory"). */
export function fileReason(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const known: Record<string, string> = {
    ENOENT: 'no such file or folder',
    EACCES: 'permission denied',
    EPERM: 'permission denied',
    EISDIR: 'it is a folder',
    ENOTDIR: 'a part of the path is not a folder',
    ENOSPC: 'the disk is full',
    EROFS: 'the disk is read-only',
  };
  if (code && known[code]) return known[code]!;
  return error instanceof Error ? error.message.replace(/[.\s]+$/, '') : String(error);
}

/**
 * Where `--out` writes: the path itself, or the export's suggested file name inside it when it is a folder.
 * Refuses an existing file unless `force`, and a folder that does not exist.
 */
export function outputPath(io: CliIo, out: string, suggestedName: string, force: boolean): string {
  let path = resolve(io.cwd, out);
  if (existsSync(path) && statSync(path).isDirectory()) path = join(path, basename(suggestedName));
  if (!existsSync(dirname(path)) || !statSync(dirname(path)).isDirectory()) throw new FileError(`Cannot write ${path}: the folder ${dirname(path)} does not exist.`);
  if (existsSync(path) && !force) throw new FileError(`${path} already exists; add --force to replace it.`);
  return path;
}

/** Writes the whole text beside the target first, then moves it in place, so a failed write leaves nothing half done. */
export function writeWhole(path: string, content: string): number {
  const partial = `${path}.partial`;
  try {
    writeFileSync(partial, content, 'utf8');
    renameSync(partial, path);
    return statSync(path).size;
  } catch (error) {
    rmSync(partial, { force: true });
    throw new FileError(`Cannot write ${path}: ${fileReason(error)}.`);
  }
}

/** Reads a text file to import, refusing one over `maxBytes` from its size on disk before reading any of it. */
export function readImportFile(io: CliIo, file: string, maxBytes: number, maxLabel: string): { path: string; text: string; bytes: number } {
  const path = resolve(io.cwd, file);
  let bytes: number;
  try {
    const stat = statSync(path);
    if (stat.isDirectory()) throw new FileError(`${path} is a folder, not a file.`);
    bytes = stat.size;
  } catch (error) {
    if (error instanceof FileError) throw error;
    throw new FileError(`Cannot read ${path}: ${fileReason(error)}.`);
  }
  if (bytes > maxBytes) throw new FileError(`${path} is larger than ${maxLabel}, the most this app imports.`);
  try {
    return { path, text: readFileSync(path, 'utf8'), bytes };
  } catch (error) {
    throw new FileError(`Cannot read ${path}: ${fileReason(error)}.`);
  }
}

/** Rows as aligned columns under a header; the last column is not padded. */
export function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]) =>
    cells.map((cell, i) => (i === cells.length - 1 ? cell : cell.padEnd(widths[i]!))).join('  ').trimEnd();
  return `${[line(header), ...rows.map(line)].join('\n')}\n`;
}
