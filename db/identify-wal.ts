// Reading a -wal file as SQLite would, without SQLite: SQLite applies whatever valid WAL sits beside a database,
// even one written for another file, so the app looks at it first (docs/reliability.md "A WAL that is not this
// database's"). Format: https://www.sqlite.org/fileformat2.html#walformat — a 32-byte header (magic, format,
// page size, checkpoint sequence, two salts, a checksum), then frames of a 24-byte header and one page each. A
// frame counts when its salts equal the header's and the running checksum holds; the WAL's content ends at the
// last such frame that commits a transaction.
import { closeSync, existsSync, fstatSync, openSync, readSync } from 'node:fs';

export interface WalContent {
  pageSize: number;
  checkpointSequence: number;
  salt1: number;
  salt2: number;
  /** Valid frames up to the last commit. */
  frames: number;
  /** For each page the WAL holds, the file offset of its newest committed version. */
  pages: Map<number, number>;
}

const MAGIC_LITTLE = 0x377f0682;
const MAGIC_BIG = 0x377f0683;
const HEADER = 32;
const FRAME_HEADER = 24;

/** Reads `length` bytes at `position`, or null when the file is shorter. */
function readAt(fd: number, position: number, length: number): Buffer | null {
  const buffer = Buffer.alloc(length);
  const read = readSync(fd, buffer, 0, length, position);
  return read === length ? buffer : null;
}

/** SQLite's WAL checksum over `data` (a multiple of 8 bytes), continuing from `[s0, s1]`. */
function checksum(data: Buffer, bigEndian: boolean, s0: number, s1: number): [number, number] {
  for (let i = 0; i < data.length; i += 8) {
    const x0 = bigEndian ? data.readUInt32BE(i) : data.readUInt32LE(i);
    const x1 = bigEndian ? data.readUInt32BE(i + 4) : data.readUInt32LE(i + 4);
    s0 = (s0 + x0 + s1) >>> 0;
    s1 = (s1 + x1 + s0) >>> 0;
  }
  return [s0, s1];
}

/** The committed content of the WAL at `walPath`, or null when it has none (missing, empty, or no valid frame). */
export function readWal(walPath: string): WalContent | null {
  if (!existsSync(walPath)) return null;
  const fd = openSync(walPath, 'r');
  try {
    const size = fstatSync(fd).size;
    const header = readAt(fd, 0, HEADER);
    if (!header) return null;
    const magic = header.readUInt32BE(0);
    if (magic !== MAGIC_LITTLE && magic !== MAGIC_BIG) return null;
    const bigEndian = magic === MAGIC_BIG;
    const pageSize = header.readUInt32BE(8);
    if (pageSize < 512 || pageSize > 65536 || (pageSize & (pageSize - 1)) !== 0) return null;
    let [s0, s1] = checksum(header.subarray(0, 24), bigEndian, 0, 0);
    if (s0 !== header.readUInt32BE(24) || s1 !== header.readUInt32BE(28)) return null;
    const salt1 = header.readUInt32BE(16);
    const salt2 = header.readUInt32BE(20);
    const pages = new Map<number, number>();
    const pending = new Map<number, number>();
    let frames = 0;
    for (let at = HEADER, index = 1; at + FRAME_HEADER + pageSize <= size; at += FRAME_HEADER + pageSize, index += 1) {
      const frame = readAt(fd, at, FRAME_HEADER + pageSize);
      if (!frame || frame.readUInt32BE(8) !== salt1 || frame.readUInt32BE(12) !== salt2) break;
      [s0, s1] = checksum(frame.subarray(0, 8), bigEndian, s0, s1);
      [s0, s1] = checksum(frame.subarray(FRAME_HEADER), bigEndian, s0, s1);
      if (s0 !== frame.readUInt32BE(16) || s1 !== frame.readUInt32BE(20)) break;
      const page = frame.readUInt32BE(0);
      if (page === 0) break;
      pending.set(page, at + FRAME_HEADER);
      if (frame.readUInt32BE(4) !== 0) {
        // A commit frame: everything up to here is the WAL's content.
        for (const [p, offset] of pending) pages.set(p, offset);
        pending.clear();
        frames = index;
      }
    }
    if (frames === 0) return null;
    return { pageSize, checkpointSequence: header.readUInt32BE(12), salt1, salt2, frames, pages };
  } finally {
    closeSync(fd);
  }
}

/** The page size a database file's header gives (offset 16, two bytes; 1 means 65536), or null when unreadable. */
export function databasePageSize(databasePath: string): number | null {
  if (!existsSync(databasePath)) return null;
  const fd = openSync(databasePath, 'r');
  try {
    const header = readAt(fd, 0, 100);
    if (!header || header.toString('latin1', 0, 16) !== 'SQLite format 3\u0000') return null;
    const size = header.readUInt16BE(16);
    return size === 1 ? 65536 : size;
  } finally {
    closeSync(fd);
  }
}

/**
 * True when every page the WAL holds is already in the database file, byte for byte: applying it changes nothing
 * (what a checkpoint that finished leaves before the WAL starts over), so whose it is does not matter.
 */
export function walAlreadyInFile(databasePath: string, walPath: string, wal: WalContent): boolean {
  const db = openSync(databasePath, 'r');
  const log = openSync(walPath, 'r');
  try {
    for (const [page, offset] of wal.pages) {
      const inWal = readAt(log, offset, wal.pageSize);
      const inFile = readAt(db, (page - 1) * wal.pageSize, wal.pageSize);
      if (!inWal || !inFile || !inWal.equals(inFile)) return false;
    }
    return true;
  } finally {
    closeSync(db);
    closeSync(log);
  }
}
