// The checks on a command's input (decisions.md 20): each refusal names its field and changes nothing.
import { invalidArgument } from '../../kernel/errors.js';
import type { DeviceCommandType } from './rows.js';

const MAX_UNLOCK_HOURS = 720;
const MAX_MESSAGE_CHARACTERS = 500;

/**
 * What a lock screen must not be given (decisions.md 34): characters that would show something other
 * than what was sent. The newline stays, and so do the marks right-to-left text needs (U+200E,
 * U+200F, U+061C).
 */
function refusedKind(codePoint: number): string | null {
  if (codePoint === 0x0a) return null;
  if (codePoint <= 0x1f || (codePoint >= 0x7f && codePoint <= 0x9f)) return 'a control character';
  if (codePoint >= 0x202a && codePoint <= 0x202e) return 'a bidirectional embedding or override';
  if (codePoint >= 0x2066 && codePoint <= 0x2069) return 'a bidirectional isolate';
  if (codePoint === 0x2028 || codePoint === 0x2029) return 'a line or paragraph separator';
  // A surrogate alone (a pair is read as one code point): not well-formed text.
  if (codePoint >= 0xd800 && codePoint <= 0xdfff) return 'a lone surrogate, not well-formed text';
  return null;
}

/** The first refused character of a message, as the refusal names it; null when there is none. */
function refusedCharacterOf(message: string): string | null {
  let position = 0;
  for (const character of message) {
    position += 1;
    const codePoint = character.codePointAt(0)!;
    const kind = refusedKind(codePoint);
    if (kind !== null) {
      const name = `U+${codePoint.toString(16).toUpperCase().padStart(4, '0')}`;
      return `must not contain ${name} (${kind}), found at character ${position}`;
    }
  }
  return null;
}

export interface CommandAsked {
  type: DeviceCommandType;
  hours?: number | null;
  message?: string | null;
}

/** The command's checked input: hours for UNLOCK_FOR_HOURS only, message for SHOW_MESSAGE only. */
export function checkedCommand(asked: CommandAsked): {
  type: DeviceCommandType;
  hours: number | null;
  message: string | null;
} {
  const { type } = asked;
  const hours = asked.hours ?? null;
  const message = asked.message ?? null;
  if (type === 'UNLOCK_FOR_HOURS') {
    if (hours === null) throw invalidArgument('input.hours', 'is required for UNLOCK_FOR_HOURS');
    if (!Number.isInteger(hours) || hours < 1 || hours > MAX_UNLOCK_HOURS)
      throw invalidArgument('input.hours', `must be a whole number from 1 to ${MAX_UNLOCK_HOURS}`);
  } else if (hours !== null) throw invalidArgument('input.hours', `is taken by UNLOCK_FOR_HOURS only, not ${type}`);
  if (type === 'SHOW_MESSAGE') {
    if (message === null || message.trim() === '')
      throw invalidArgument('input.message', 'is required for SHOW_MESSAGE and must not be blank');
    // Counted in characters (code points), as the database's char_length counts them.
    if ([...message].length > MAX_MESSAGE_CHARACTERS)
      throw invalidArgument('input.message', `must be at most ${MAX_MESSAGE_CHARACTERS} characters`);
    const refused = refusedCharacterOf(message);
    if (refused !== null) throw invalidArgument('input.message', refused);
  } else if (message !== null) throw invalidArgument('input.message', `is taken by SHOW_MESSAGE only, not ${type}`);
  return { type, hours, message };
}
