// The unlock key's seal (docs/decisions.md 35): it opens to the key it sealed, for its own row only,
// under any listed key, and refuses a changed byte, another row, and a key the list does not name.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  sealingKeyIdOf,
  type UnlockKeyBinding,
  UnlockKeyNotOpened,
  unlockKeyOfRow,
  unlockKeySealer,
} from './sealing.js';

const key = (id: string) => ({ id, secret: randomBytes(32).toString('base64url') });
const OLD = key('old');
const NEW = key('new');
const K = 'bae434ad4a5b0047bcff0ad2535c083f26a77554e60a55f66f9b3793e0d8aa96';
const ROW: UnlockKeyBinding = { partnerId: '1', deviceId: '7', credentialKeyHash: 'ab'.repeat(32) };

/** The sealed text with one character of its ciphertext changed (still base64url, still 64 characters). */
function changed(sealed: string): string {
  const at = sealed.length - 30;
  return `${sealed.slice(0, at)}${sealed[at] === 'A' ? 'B' : 'A'}${sealed.slice(at + 1)}`;
}

describe('sealing an unlock key', () => {
  it('names its format and key, holds no trace of K, and opens to K', () => {
    const sealer = unlockKeySealer([OLD]);
    const sealed = sealer.seal(K, ROW);
    expect(sealed).toMatch(/^v1\.old\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]{64}$/);
    expect(sealingKeyIdOf(sealed)).toBe('old');
    expect(sealed).not.toContain(K);
    expect(sealed).not.toContain(Buffer.from(K, 'hex').toString('base64url').slice(0, 12));
    expect(sealer.open(sealed, ROW)).toBe(K);
    // A fresh nonce every time: two seals of one key differ.
    expect(sealer.seal(K, ROW)).not.toBe(sealed);
  });

  it("does not open on another row: another device, partner or credential (a seal copied onto another device's row)", () => {
    const sealer = unlockKeySealer([OLD]);
    const sealed = sealer.seal(K, ROW);
    for (const other of [
      { ...ROW, deviceId: '8' },
      { ...ROW, partnerId: '2' },
      { ...ROW, credentialKeyHash: 'cd'.repeat(32) },
    ]) {
      expect(() => sealer.open(sealed, other)).toThrow(UnlockKeyNotOpened);
    }
    expect(() => sealer.open(changed(sealed), ROW)).toThrow(/does not open/);
    expect(() => sealer.open(K, ROW)).toThrow(/not a seal/); // a clear key is not opened as a seal
  });

  it('rotates: the first key seals, every listed key opens, a dropped key is named when its seal does not open', () => {
    const before = unlockKeySealer([OLD]).seal(K, ROW);
    const both = unlockKeySealer([NEW, OLD]);
    expect(both.sealingKeyId).toBe('new');
    expect(both.keyIds).toEqual(['new', 'old']);
    expect(both.open(before, ROW)).toBe(K);
    const resealed = both.seal(both.open(before, ROW), ROW);
    expect(sealingKeyIdOf(resealed)).toBe('new');
    const newOnly = unlockKeySealer([NEW]);
    expect(newOnly.open(resealed, ROW)).toBe(K);
    expect(() => newOnly.open(before, ROW)).toThrow(
      /sealed under key "old", which DEVICE_UNLOCK_SEALING_KEYS does not list/,
    );
  });

  it('reads a row: the sealed key opened, a clear one (written before sealing) as it is, none as null', () => {
    const sealer = unlockKeySealer([OLD]);
    expect(unlockKeyOfRow(sealer, { unlock_key: null, unlock_key_sealed: sealer.seal(K, ROW) }, ROW)).toBe(K);
    expect(unlockKeyOfRow(sealer, { unlock_key: K, unlock_key_sealed: null }, ROW)).toBe(K);
    expect(unlockKeyOfRow(sealer, { unlock_key: null, unlock_key_sealed: null }, ROW)).toBeNull();
  });

  it('refuses what is not an unlock key or a sealing key', () => {
    expect(() => unlockKeySealer([OLD]).seal('ABC', ROW)).toThrow(RangeError);
    expect(() => unlockKeySealer([])).toThrow(RangeError);
    expect(() => unlockKeySealer([{ id: 'short', secret: randomBytes(16).toString('base64url') }])).toThrow(RangeError);
  });
});
