// The checks on a command's input (decisions.md 20): each refusal names its field and changes nothing.
import { invalidArgument } from '../../kernel/errors.js';
import type { DeviceCommandType } from './rows.js';

export const MAX_UNLOCK_HOURS = 720;
export const MAX_MESSAGE_CHARACTERS = 500;

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
    if (message.includes('\u0000')) throw invalidArgument('input.message', 'must not contain a NUL character');
  } else if (message !== null) throw invalidArgument('input.message', `is taken by SHOW_MESSAGE only, not ${type}`);
  return { type, hours, message };
}
