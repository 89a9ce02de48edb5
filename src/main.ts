// Process entry: the command line (--role), configuration, the start of the role (src/process/service.ts),
// one line and exit 1 when it fails, and a bounded drain on SIGTERM.
import { loadConfigOrExit, readArgsOrExit } from './cli/run.js';
import { RETIRED_SETTINGS } from './kernel/config.js';
import { createLogger } from './kernel/logger.js';
import { announceListening } from './process/announce.js';
import { type StartedService, startService } from './process/service.js';
import { runShutdownSteps } from './process/shutdown.js';
import { exitOnStartupFailure } from './process/startupFailure.js';

const USAGE = `usage: npm start -- [--role api|worker|all]
       npm run start:prod -- [--role api|worker|all]      (or SERVICE_ROLE; the default is all)`;
const { values } = readArgsOrExit(USAGE, { options: { role: { type: 'string' } } });
const config = loadConfigOrExit({ role: values.role });
const logger = createLogger(config.logLevel);
for (const setting of config.retiredSettings) {
  logger.warn({ setting }, `${setting} is retired and ignored: ${RETIRED_SETTINGS[setting]}`);
}

let service: StartedService;
try {
  service = await startService(config, logger);
} catch (error) {
  exitOnStartupFailure(error, config);
}

let stopping = false;
async function shutdown(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  // /readyz says "draining" first; after DRAIN_DELAY_MS (longer than the balancer's health-check
  // interval times its failure threshold) no balancer sends here any more, and the listener closes.
  service.startDraining();
  if (config.drainDelayMs > 0) {
    logger.info({ signal, drainDelayMs: config.drainDelayMs }, 'draining: /readyz answers 503, still serving');
    await new Promise((resolve) => setTimeout(resolve, config.drainDelayMs));
  }
  logger.info({ signal }, 'draining: no new connections, finishing in-flight requests');
  // Each step in turn, within SHUTDOWN_TIMEOUT_MS; past it the step still waited for is logged, exit 1.
  const outcome = await runShutdownSteps(service.shutdownSteps(), { timeoutMs: config.shutdownTimeoutMs, logger });
  if (outcome === 'done') logger.info('stopped');
  process.exit(outcome === 'done' ? 0 : 1);
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));
// Said once the signals are handled: whoever waits for this line may stop the service at once.
await announceListening(config, logger, service);
