// Preloaded with `node --import` (npm start, npm run start:prod) before the service's first module:
// with tracing off (no OTEL_EXPORTER_OTLP_ENDPOINT, src/kernel/tracingSettings.ts tracingEnabled) it returns at once,
// and nothing is registered or patched. With tracing on it registers import-in-the-middle's loader
// hook for the modules the instrumentations hook (express is imported from ESM here; pg and graphql's
// files are required from CommonJS, where require-in-the-middle sees them), then starts the SDK, so
// every instrumented module is patched as it first loads.
import { tracingEnabled } from '../kernel/tracingSettings.js';

if (tracingEnabled()) {
  const { register } = await import('node:module');
  const { createAddHookMessageChannel } = await import('import-in-the-middle');
  // Only the modules an instrumentation asks for are wrapped by the ESM hook, none else.
  const { registerOptions, waitForAllMessagesAcknowledged } = createAddHookMessageChannel();
  register('import-in-the-middle/hook.mjs', import.meta.url, registerOptions);
  const { startTracing } = await import('./sdk.js');
  startTracing();
  await waitForAllMessagesAcknowledged();
}
