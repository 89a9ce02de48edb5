// Event ids: "evt_" and 26 characters, the first 10 the time in milliseconds (base 62, so ids sort by
// the time they were made), the rest random: unique without asking the database, safe in a URL or a
// header (an event's id is the webhook-id of its deliveries).
import { base62, randomBase62 } from '../../kernel/base62.js';

export function newEventId(now: Date): string {
  return `evt_${base62(now.getTime(), 10)}${randomBase62(16)}`;
}

export const EVENT_ID = /^evt_[0-9A-Za-z]{26}$/;
