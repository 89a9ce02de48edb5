// How an API key is kept: only its SHA-256 is stored, and a short display prefix so people can tell
// keys apart. A lookup compares hashes through a unique index, so the secret itself is never compared.
import { createHash } from 'node:crypto';

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

const DISPLAY_PREFIX_LENGTH = 8;

export function displayPrefix(key: string): string {
  return key.slice(0, DISPLAY_PREFIX_LENGTH);
}
