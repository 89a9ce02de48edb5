// The secrets the service's roles hold (decisions.md 27): the keys that sign access tokens and the
// device door's answers, and the keys that seal the devices' unlock keys at rest (decisions.md 35).
// Each is a rotating key list; production must set every one (every instance needs the same keys),
// elsewhere each is generated once and kept under DATA_DIR. The command line tools need none of them
// (the release step runs with the database alone), so they are read apart from the rest of config.ts.
import { createPrivateKey, generateKeyPairSync, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError, type Env } from './configError.js';

/** A key of a rotating list: its id (named in what it signs or seals) and its secret text. */
export interface ListedKey {
  id: string;
  secret: string;
}

export interface ServiceSecrets {
  /** The first signs new access tokens; every one verifies them (rotation). */
  tokenSigningKeys: ListedKey[];
  /** The Ed25519 keys that sign the device door's answers (PKCS#8 DER, base64url): the first signs, all are published. */
  deviceSigningKeys: ListedKey[];
  /** The AES-256 keys (32 bytes, base64url) that seal the devices' unlock keys at rest: the first seals, all open. */
  unlockSealingKeys: ListedKey[];
}

/** Where a secret comes from when it is not set: production refuses, elsewhere it is kept under dataDir. */
interface SecretSource {
  production: boolean;
  dataDir: string;
}

const MIN_SECRET_LENGTH = 32;

/** Every secret of the service's roles, each read and checked now. */
export function loadServiceSecrets(env: Env, source: SecretSource): ServiceSecrets {
  return {
    tokenSigningKeys: tokenSigningKeys(env, source),
    deviceSigningKeys: deviceSigningKeys(env, source),
    unlockSealingKeys: unlockSealingKeys(env, source),
  };
}

/**
 * A rotating key list, "id:secret,id:secret" (the first signs or seals, all verify or open): ids of
 * letters, digits, _ and -, each once; `problemOf` says what is wrong with a secret, or null.
 */
function keyList(
  variable: string,
  list: string,
  secretWord: string,
  problemOf: (id: string, secret: string) => string | null,
): ListedKey[] {
  const keys = list.split(',').map((entry) => {
    const separator = entry.indexOf(':');
    const id = entry.slice(0, separator).trim();
    const secret = entry.slice(separator + 1).trim();
    if (separator <= 0 || !/^[A-Za-z0-9_-]{1,32}$/.test(id)) {
      throw new ConfigError(
        variable,
        `must be a comma-separated list of id:${secretWord}, ids of letters, digits, _ and -`,
      );
    }
    const problem = problemOf(id, secret);
    if (problem) throw new ConfigError(variable, problem);
    return { id, secret };
  });
  if (new Set(keys.map((key) => key.id)).size !== keys.length) throw new ConfigError(variable, 'names a key id twice');
  return keys;
}

/**
 * Outside production, the secret kept in dataDir/`file` (made there once, mode 600, by `generate`), so
 * what it signed or sealed still verifies or opens after a restart. Production refuses: `variable` is
 * required there.
 */
function keptSecret(
  variable: string,
  source: SecretSource,
  file: string,
  valid: (text: string) => boolean,
  generate: () => string,
): string {
  if (source.production) throw new ConfigError(variable, 'is required when NODE_ENV=production');
  const path = join(source.dataDir, file);
  if (existsSync(path)) {
    const kept = readFileSync(path, 'utf8').trim();
    if (valid(kept)) return kept;
  }
  mkdirSync(source.dataDir, { recursive: true });
  const generated = generate();
  writeFileSync(path, `${generated}\n`, { mode: 0o600 });
  return generated;
}

/**
 * The keys that sign access tokens: TOKEN_SIGNING_KEYS="id:secret,id:secret" (the first signs, all
 * verify, so a key is rotated in before the old one is retired), or one TOKEN_SIGNING_SECRET.
 */
function tokenSigningKeys(env: Env, source: SecretSource): ListedKey[] {
  const list = env.TOKEN_SIGNING_KEYS;
  if (list !== undefined && list !== '') {
    return keyList('TOKEN_SIGNING_KEYS', list, 'secret', (id, secret) => {
      if (secret.length < MIN_SECRET_LENGTH)
        return `secret of key "${id}" must be at least ${MIN_SECRET_LENGTH} characters long`;
      return null;
    });
  }
  const raw = env.TOKEN_SIGNING_SECRET;
  if (raw !== undefined && raw !== '') {
    if (raw.length < MIN_SECRET_LENGTH) {
      throw new ConfigError('TOKEN_SIGNING_SECRET', `must be at least ${MIN_SECRET_LENGTH} characters long`);
    }
    return [{ id: 'default', secret: raw }];
  }
  if (source.production)
    throw new ConfigError('TOKEN_SIGNING_SECRET', 'or TOKEN_SIGNING_KEYS is required when NODE_ENV=production');
  const secret = keptSecret(
    'TOKEN_SIGNING_SECRET',
    source,
    'token-signing-secret',
    (kept) => kept.length >= MIN_SECRET_LENGTH,
    () => randomBytes(32).toString('base64url'),
  );
  return [{ id: 'default', secret }];
}

/**
 * The keys that sign the device door's check-in answers (decisions.md 19):
 * DEVICE_SIGNING_KEYS="id:<Ed25519 private key, PKCS#8 DER, base64url>,..." (the first signs, all are
 * published, so a key is rotated in before it signs).
 */
function deviceSigningKeys(env: Env, source: SecretSource): ListedKey[] {
  const list = env.DEVICE_SIGNING_KEYS;
  if (list !== undefined && list !== '') {
    return keyList('DEVICE_SIGNING_KEYS', list, 'key', (id, secret) =>
      isEd25519PrivateKey(secret) ? null : `key "${id}" is not an Ed25519 private key (PKCS#8 DER, base64url)`,
    );
  }
  const secret = keptSecret('DEVICE_SIGNING_KEYS', source, 'device-signing-key', isEd25519PrivateKey, () =>
    generateKeyPairSync('ed25519').privateKey.export({ format: 'der', type: 'pkcs8' }).toString('base64url'),
  );
  return [{ id: 'dev', secret }];
}

function isEd25519PrivateKey(text: string): boolean {
  if (!/^[A-Za-z0-9_-]+$/.test(text)) return false;
  try {
    const key = createPrivateKey({ key: Buffer.from(text, 'base64url'), format: 'der', type: 'pkcs8' });
    return key.asymmetricKeyType === 'ed25519';
  } catch {
    return false;
  }
}

/**
 * The keys that seal the devices' unlock keys at rest (decisions.md 35):
 * DEVICE_UNLOCK_SEALING_KEYS="id:<32 random bytes, base64url>,..." (the first seals, all open, so a key
 * is added second, moved first, the stored keys resealed, and the old one dropped). The command that
 * reseals reads it too (npm run keys -- seal-unlock-keys).
 */
export function unlockSealingKeys(env: Env, source: SecretSource): ListedKey[] {
  const list = env.DEVICE_UNLOCK_SEALING_KEYS;
  if (list !== undefined && list !== '') {
    return keyList('DEVICE_UNLOCK_SEALING_KEYS', list, 'key', (id, secret) =>
      isAes256Key(secret) ? null : `key "${id}" is not 32 bytes in base64url (43 characters)`,
    );
  }
  const secret = keptSecret('DEVICE_UNLOCK_SEALING_KEYS', source, 'device-unlock-sealing-key', isAes256Key, () =>
    randomBytes(32).toString('base64url'),
  );
  return [{ id: 'dev', secret }];
}

/** 32 bytes in canonical unpadded base64url: exactly what randomBytes(32).toString('base64url') writes. */
function isAes256Key(text: string): boolean {
  return /^[A-Za-z0-9_-]{43}$/.test(text) && Buffer.from(text, 'base64url').toString('base64url') === text;
}
