// Structured JSON logs. Secrets never reach a log line: request lines carry the path without its
// query string (the partner key travels there), and these paths are redacted wherever they appear.
import pino, { type Logger } from 'pino';
import type { LogLevel } from './config.js';

export const REDACTED_PATHS = [
  'key',
  'apiKey',
  'token',
  'access_token',
  'authorization',
  '*.key',
  '*.apiKey',
  '*.token',
  '*.access_token',
  '*.authorization',
  'headers.authorization',
  'headers["x-api-key"]',
  'req.headers.authorization',
  'req.headers["x-api-key"]',
  // What the auth module calls its secrets: a created key's secret, an access token, the signing secret.
  'secret',
  'accessToken',
  'signingSecret',
  '*.secret',
  '*.accessToken',
  '*.signingSecret',
];

export function createLogger(level: LogLevel, destination?: pino.DestinationStream): Logger {
  return pino({ level, redact: { paths: REDACTED_PATHS, censor: '[redacted]' } }, destination);
}
