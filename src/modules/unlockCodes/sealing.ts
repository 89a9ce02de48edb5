// Unlock keys sealed at rest (docs/decisions.md 35): a device's unlock key K is stored encrypted with
// AES-256-GCM under a key the database does not hold (DEVICE_UNLOCK_SEALING_KEYS: the first seals,
// every one opens), bound to its row by the associated data, so a dump, a backup or the replica holds
// no key that makes codes. node:crypto's own cipher: one call each way, no library.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { ListedKey } from '../../kernel/serviceSecrets.js';

/** What a sealed key is bound to: its credential's row (another row's seal does not open here). */
export interface UnlockKeyBinding {
  partnerId: string;
  deviceId: string;
  /** The credential's SHA-256 (hex): known before its row is written, and read with it by a payment. */
  credentialKeyHash: string;
}

/** The sealing keys, ready: seals with the first, opens with any. */
export interface UnlockKeySealer {
  /** The id new seals name: the list's first. */
  readonly sealingKeyId: string;
  /** Every id it opens with. */
  readonly keyIds: readonly string[];
  /** K (64 hex digits) sealed for its row: `v1.<key id>.<nonce>.<ciphertext and tag>`, base64url. */
  seal(unlockKeyHex: string, binding: UnlockKeyBinding): string;
  /** K (hex) out of its sealed text; throws UnlockKeyNotOpened if its key is not listed or the text or binding differ. */
  open(sealed: string, binding: UnlockKeyBinding): string;
}

/** A stored seal that does not open: its message names the credential's key id and why, never a key. */
export class UnlockKeyNotOpened extends Error {
  override name = 'UnlockKeyNotOpened';
}

const FORMAT = 'v1';
const CIPHER = 'aes-256-gcm';
const NONCE_BYTES = 12;
const TAG_BYTES = 16;
const UNLOCK_KEY_BYTES = 32;
const SEALED = /^v1\.([A-Za-z0-9_-]{1,32})\.([A-Za-z0-9_-]{16})\.([A-Za-z0-9_-]{64})$/;

/** The associated data: the format's name and the row's identity, each part ended by a NUL (ids are digits, the hash hex). */
function associatedData(binding: UnlockKeyBinding): Buffer {
  return Buffer.from(
    `dfs-unlock-key-seal-v1\0${binding.partnerId}\0${binding.deviceId}\0${binding.credentialKeyHash}\0`,
    'utf8',
  );
}

/** The id of the key a stored seal names, or null for text that is not a seal of this format. */
export function sealingKeyIdOf(sealed: string): string | null {
  return SEALED.exec(sealed)?.[1] ?? null;
}

export function unlockKeySealer(keys: readonly ListedKey[]): UnlockKeySealer {
  if (keys.length === 0) throw new RangeError('at least one unlock sealing key is needed');
  const byId = new Map(keys.map((key) => [key.id, Buffer.from(key.secret, 'base64url')] as const));
  for (const [id, key] of byId) {
    if (key.length !== 32) throw new RangeError(`unlock sealing key "${id}" is not 32 bytes`);
  }
  const sealingKeyId = keys[0]!.id;
  return {
    sealingKeyId,
    keyIds: [...byId.keys()],
    seal(unlockKeyHex, binding) {
      if (!/^[0-9a-f]{64}$/.test(unlockKeyHex)) throw new RangeError('an unlock key is 64 lowercase hex digits');
      const nonce = randomBytes(NONCE_BYTES);
      const cipher = createCipheriv(CIPHER, byId.get(sealingKeyId)!, nonce, { authTagLength: TAG_BYTES });
      cipher.setAAD(associatedData(binding));
      const body = Buffer.concat([
        cipher.update(Buffer.from(unlockKeyHex, 'hex')),
        cipher.final(),
        cipher.getAuthTag(),
      ]);
      return `${FORMAT}.${sealingKeyId}.${nonce.toString('base64url')}.${body.toString('base64url')}`;
    },
    open(sealed, binding) {
      const parts = SEALED.exec(sealed);
      if (!parts) throw new UnlockKeyNotOpened('a stored unlock key is not a seal of format v1');
      const [, keyId, nonceText, bodyText] = parts as unknown as [string, string, string, string];
      const key = byId.get(keyId);
      if (!key) {
        throw new UnlockKeyNotOpened(
          `a stored unlock key is sealed under key "${keyId}", which DEVICE_UNLOCK_SEALING_KEYS does not list`,
        );
      }
      const body = Buffer.from(bodyText, 'base64url');
      const decipher = createDecipheriv(CIPHER, key, Buffer.from(nonceText, 'base64url'), {
        authTagLength: TAG_BYTES,
      });
      decipher.setAAD(associatedData(binding));
      decipher.setAuthTag(body.subarray(UNLOCK_KEY_BYTES));
      try {
        return Buffer.concat([decipher.update(body.subarray(0, UNLOCK_KEY_BYTES)), decipher.final()]).toString('hex');
      } catch {
        throw new UnlockKeyNotOpened(
          `a stored unlock key sealed under key "${keyId}" does not open: it was changed, or belongs to another credential's row`,
        );
      }
    },
  };
}

/**
 * A credential's unlock key (hex) as its row keeps it: opened when sealed; as it is while a row written
 * before sealing still holds it in clear (the worker seals those: storedKeys.ts). Null for neither.
 */
export function unlockKeyOfRow(
  sealer: UnlockKeySealer,
  row: { unlock_key: string | null; unlock_key_sealed: string | null },
  binding: UnlockKeyBinding,
): string | null {
  if (row.unlock_key_sealed !== null) return sealer.open(row.unlock_key_sealed, binding);
  return row.unlock_key;
}
