// The repository's Dockerfile and .dockerignore, read through parsers from npm (dockerfile-ast,
// @balena/dockerignore: Docker's own matching rules), for the static checks and for the clean-folder
// install that runs the image's steps without a container engine.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import dockerignoreModule from '@balena/dockerignore';
import { type Cmd, DockerfileParser, type Env, type Healthcheck, type Instruction } from 'dockerfile-ast';

// A CommonJS module whose typings declare a default export: the function is module.exports and its .default.
const dockerignore = dockerignoreModule.default;

export const ROOT = new URL('../../', import.meta.url).pathname;

export type Step =
  | { kind: 'copy'; from: string | null; sources: string[]; destination: string }
  | { kind: 'run'; command: string; flags: string[] };

export interface Stage {
  name: string;
  image: string;
  workdir: string | null;
  env: Record<string, string>;
  steps: Step[];
  user: string | null;
  /** HEALTHCHECK's options (`interval` -> `10s`) and its exec-form command. */
  healthcheck: { options: Record<string, string>; command: string[] } | null;
  cmd: string[] | null;
  exposed: string[];
}

export const dockerfileText = () => readFileSync(join(ROOT, 'Dockerfile'), 'utf8');

/** The Dockerfile's stages in order, each with the instructions this project uses. */
export function readDockerfile(text = dockerfileText()): Stage[] {
  const stages: Stage[] = [];
  for (const instruction of DockerfileParser.parse(text).getInstructions()) {
    const keyword = instruction.getKeyword();
    if (keyword === 'FROM') {
      const [image, as, name] = instruction.getArguments().map((argument) => argument.getValue());
      if (as?.toUpperCase() !== 'AS' || !name) throw new Error(`every stage is named: FROM ${image}`);
      stages.push({
        name,
        image: image!,
        workdir: null,
        env: {},
        steps: [],
        user: null,
        healthcheck: null,
        cmd: null,
        exposed: [],
      });
      continue;
    }
    const stage = stages.at(-1);
    if (!stage) throw new Error(`${keyword} before FROM`);
    read(stage, instruction);
  }
  return stages;
}

function read(stage: Stage, instruction: Instruction): void {
  const keyword = instruction.getKeyword();
  const args = instruction.getArguments().map((argument) => argument.getValue());
  const flags = 'getFlags' in instruction ? (instruction as unknown as { getFlags(): FlagLike[] }).getFlags() : [];
  switch (keyword) {
    case 'WORKDIR':
      stage.workdir = args[0]!;
      return;
    case 'ENV':
      for (const property of (instruction as Env).getProperties())
        stage.env[property.getName()] = property.getValue() ?? '';
      return;
    case 'COPY': {
      const from = flags.find((flag) => flag.getName() === 'from')?.getValue() ?? null;
      stage.steps.push({ kind: 'copy', from, sources: args.slice(0, -1), destination: args.at(-1)! });
      return;
    }
    case 'RUN':
      stage.steps.push({
        kind: 'run',
        command: instruction.getArgumentsContent() ?? '',
        flags: flags.map((flag) => `${flag.getName()}=${flag.getValue() ?? ''}`),
      });
      return;
    case 'USER':
      stage.user = args[0]!;
      return;
    case 'EXPOSE':
      stage.exposed.push(...args);
      return;
    case 'HEALTHCHECK': {
      const healthcheck = instruction as Healthcheck;
      const options = Object.fromEntries(healthcheck.getFlags().map((flag) => [flag.getName(), flag.getValue() ?? '']));
      const content = healthcheck.getArgumentsContent() ?? '';
      const form = /^CMD\s+(\[.*\])\s*$/s.exec(content);
      if (!form) throw new Error(`HEALTHCHECK must be CMD in exec form, got: ${content}`);
      stage.healthcheck = { options, command: JSON.parse(form[1]!) as string[] };
      return;
    }
    case 'CMD': {
      const strings = (instruction as Cmd).getJSONStrings().map((argument) => argument.getJSONValue());
      if (strings.length === 0) throw new Error('CMD must be in exec form');
      stage.cmd = strings;
      return;
    }
    default:
      throw new Error(`an instruction this reader does not know: ${keyword}`);
  }
}

interface FlagLike {
  getName(): string;
  getValue(): string | null;
}

/** The files of the repository a `docker build .` sends as its context, after .dockerignore. */
export function buildContextFiles(): string[] {
  const ignore = dockerignore({ ignorecase: false }).add(readFileSync(join(ROOT, '.dockerignore'), 'utf8'));
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      // Never walked: not sent anyway (the allow-list leaves them out; the static test checks it).
      if (entry.isDirectory() && ['node_modules', '.git', 'dist', 'dist-bench'].includes(entry.name)) continue;
      if (entry.isDirectory()) walk(path);
      else files.push(relative(ROOT, path));
    }
  };
  walk(ROOT);
  return ignore.filter(files).sort();
}

/** Whether .dockerignore leaves this path (relative to the repository) out of the build context. */
export function ignoredByDocker(path: string): boolean {
  return dockerignore({ ignorecase: false })
    .add(readFileSync(join(ROOT, '.dockerignore'), 'utf8'))
    .ignores(path);
}
