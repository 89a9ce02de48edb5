// How an API key is kept: only its SHA-256 is stored, and a short display prefix so people can tell
// keys apart. A lookup compares hashes through a unique index, so the secret itself is never compared.
import { createHash, randomBytes } from 'node:crypto';
import type { ApiKeyKind } from './rows.js';

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

// Long enough to tell generated keys apart (the kind prefix is 7 characters), short enough to leak nothing.
const DISPLAY_PREFIX_LENGTH = 12;

export function displayPrefix(key: string): string {
  return key.slice(0, DISPLAY_PREFIX_LENGTH);
}

const KIND_PREFIX: Readonly<Record<ApiKeyKind, string>> = { partner: 'pk', retail: 'rk', vendor: 'vk', operator: 'ok' };

/** A new random key whose prefix tells its kind: dfs_<kind>_<32 random base64url characters>. */
export function generateApiKey(kind: ApiKeyKind): string {
  return `dfs_${KIND_PREFIX[kind]}_${randomBytes(24).toString('base64url')}`;
}
