// API keys: how they look, and how they are kept. A generated key reads
// dfs_<kind>_<32 random base62 characters><6-character CRC32 checksum>: the prefix tells what leaked
// (secret scanners can match it), and the checksum rejects a mistyped or truncated key before any
// database lookup. Only the key's SHA-256 is stored, with a short display prefix to tell keys apart.
import { createHash, timingSafeEqual } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { base62, secretBase62 } from '../../kernel/base62.js';
import type { ApiKeyKind } from './rows.js';

const KIND_PREFIX: Readonly<Record<ApiKeyKind, string>> = { partner: 'pk', retail: 'rk', vendor: 'vk', operator: 'ok' };
const BODY_LENGTH = 32;
const CHECKSUM_LENGTH = 6;
const GENERATED = /^dfs_(pk|rk|vk|ok)_([0-9A-Za-z]{32})([0-9A-Za-z]{6})$/;

function checksumOf(text: string): string {
  return base62(crc32(Buffer.from(text, 'utf8')) >>> 0, CHECKSUM_LENGTH);
}

/** A new random key of `kind`: ~190 random bits, kind prefix, checksum. */
export function generateApiKey(kind: ApiKeyKind): string {
  const head = `dfs_${KIND_PREFIX[kind]}_${secretBase62(BODY_LENGTH)}`;
  return `${head}${checksumOf(head)}`;
}

/**
 * Whether a presented key could be one the service generated. Keys in the generated shape must carry
 * a valid checksum; other keys (the demo keys, keys from before this format) are looked up as they are.
 */
export function couldBeValidKey(key: string): boolean {
  if (!key.startsWith('dfs_')) return key.length <= 256;
  const match = GENERATED.exec(key);
  return match !== null && checksumOf(`dfs_${match[1]}_${match[2]}`) === match[3];
}

/** The kind a generated key's prefix names; null for keys without the prefix. */
export function kindOfGeneratedKey(key: string): ApiKeyKind | null {
  const prefix = GENERATED.exec(key)?.[1];
  const entry = Object.entries(KIND_PREFIX).find(([, value]) => value === prefix);
  return entry ? (entry[0] as ApiKeyKind) : null;
}

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** Compares two key hashes in constant time. */
export function sameHash(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
}

// Long enough to tell generated keys apart (the kind prefix is 7 characters), short enough to leak nothing.
const DISPLAY_PREFIX_LENGTH = 12;

export function displayPrefix(key: string): string {
  return key.slice(0, DISPLAY_PREFIX_LENGTH);
}
