// A report's file as it is written (docs/decisions.md 45): text appended record by record, stored in
// chunks of CHUNK_BYTES (the last one shorter) as soon as each is full, its size and SHA-256 kept as
// it goes. It holds less than one chunk besides what one append brings.
import { createHash } from 'node:crypto';

/** A stored chunk's size: 256 KiB. */
export const CHUNK_BYTES = 256 * 1024;

export interface WrittenFile {
  byteSize: number;
  sha256: string;
  chunks: number;
}

export class ChunkedFile {
  readonly #hash = createHash('sha256');
  #pending: Buffer[] = [];
  #pendingBytes = 0;
  #byteSize = 0;
  #seq = 0;

  /** `store`: writes chunk `seq` (from 0, in order), one at a time. */
  constructor(private readonly store: (seq: number, bytes: Buffer) => Promise<void>) {}

  async append(text: string): Promise<void> {
    const bytes = Buffer.from(text, 'utf8');
    this.#hash.update(bytes);
    this.#byteSize += bytes.length;
    this.#pending.push(bytes);
    this.#pendingBytes += bytes.length;
    while (this.#pendingBytes >= CHUNK_BYTES) {
      const joined = Buffer.concat(this.#pending);
      await this.store(this.#seq++, joined.subarray(0, CHUNK_BYTES));
      const rest = joined.subarray(CHUNK_BYTES);
      this.#pending = rest.length ? [Buffer.from(rest)] : [];
      this.#pendingBytes = rest.length;
    }
  }

  /** Stores what remains (a last, shorter chunk) and answers the file's size, hash and chunks. */
  async finish(): Promise<WrittenFile> {
    if (this.#pendingBytes > 0) {
      await this.store(this.#seq++, Buffer.concat(this.#pending));
      this.#pending = [];
      this.#pendingBytes = 0;
    }
    return { byteSize: this.#byteSize, sha256: this.#hash.digest('hex'), chunks: this.#seq };
  }
}
