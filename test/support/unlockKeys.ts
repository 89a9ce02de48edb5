// The sealing key of the unlock keys in every test (DEVICE_UNLOCK_SEALING_KEYS, decisions.md 35): the
// in-memory test databases have no DATA_DIR to keep a generated one in, and a database shared by two
// test services must open with either's key, so it is fixed, like the token keys (service.ts).
import { type UnlockKeySealer, unlockKeySealer } from '../../src/modules/unlockCodes/sealing.js';

export const TEST_UNLOCK_KEY_LIST = [{ id: 'test', secret: 'T2vRSwiby8kqddbCL96pe_7LbHn7422enHJsOsGVqrQ' }];
export const TEST_UNLOCK_KEYS: UnlockKeySealer = unlockKeySealer(TEST_UNLOCK_KEY_LIST);
