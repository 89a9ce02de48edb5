// The OpenTelemetry SDK's own diagnostics (an export that failed, an instrumentation that could not
// patch) written into the service's log. OpenTelemetry's DiagConsoleLogger, the usual choice (sdk-node
// installs it when OTEL_LOG_LEVEL is set), prints text through console.info and console.debug: lines on
// stdout that are not JSON (docs/decisions.md 28).
import { type DiagLogger, DiagLogLevel, diag } from '@opentelemetry/api';
import { diagLogLevelFromString, setGlobalErrorHandler } from '@opentelemetry/core';
import pino, { type Logger } from 'pino';
import type { LogLevel } from '../kernel/config.js';
import { createLogger } from '../kernel/logger.js';

/**
 * A diagnostic's message and arguments as one log line: an Error as `err`, anything else as `details`.
 * The message itself may be an Error (the SDK's components pass what they caught).
 */
function diagnosticsTo(logger: Logger): DiagLogger {
  const line =
    (level: 'error' | 'warn' | 'info' | 'debug' | 'trace') =>
    (message: unknown, ...args: unknown[]) => {
      const all = [message, ...args];
      const err = all.find((arg) => arg instanceof Error);
      const details = args.filter((arg) => arg !== err);
      const text = typeof message === 'string' ? message : err instanceof Error ? err.message : String(message);
      logger[level]({ ...(err ? { err } : {}), ...(details.length ? { details } : {}) }, text);
    };
  return { error: line('error'), warn: line('warn'), info: line('info'), debug: line('debug'), verbose: line('trace') };
}

/**
 * Sends the SDK's diagnostics to a JSON logger at OTEL_LOG_LEVEL (the SDK's variable: none, error,
 * warn, info, debug, verbose, all; unset: errors only), and the errors it hits (a span export that
 * fails) at error whatever that level: the SDK alone says nothing of them without OTEL_LOG_LEVEL.
 * Called before the SDK and its instrumentations are made (src/telemetry/sdk.ts). The logger writes
 * at LOG_LEVEL as the service's does: this runs before the service reads its configuration, so a
 * bad LOG_LEVEL falls back to info here and is refused by the service's own start.
 */
export function logDiagnostics(env: NodeJS.ProcessEnv): void {
  const named = env.LOG_LEVEL && (env.LOG_LEVEL in pino.levels.values || env.LOG_LEVEL === 'silent');
  const logger = createLogger(named ? (env.LOG_LEVEL as LogLevel) : 'info').child({ component: 'opentelemetry' });
  const logLevel = env.OTEL_LOG_LEVEL
    ? (diagLogLevelFromString(env.OTEL_LOG_LEVEL) ?? DiagLogLevel.ERROR)
    : DiagLogLevel.ERROR;
  diag.setLogger(diagnosticsTo(logger), { logLevel, suppressOverrideMessage: true });
  // What the SDK hit while working (an export that failed): its default handler writes the error,
  // serialised to a JSON string, as a diagnostic's message; here it is the line's err.
  setGlobalErrorHandler((error) => logger.error({ err: error }, 'OpenTelemetry SDK error'));
}
