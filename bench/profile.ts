// Where a door's time goes. A V8 CPU profile (node --cpu-prof, written when the
// process exits) summarised by who spent the samples: the service's own layers (src/<dir>), each
// package under node_modules, Node's internals by module (http, net, streams, ...), the garbage
// collector, and idle time; plus the heaviest functions by self time. Self time only: a sample counts
// once, for the function on top of the stack, so the shares add up to the busy total.
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

export interface ProfileShare {
  name: string;
  ms: number;
  /** Share of the busy time (all samples but idle), in percent. */
  percent: number;
}

export interface ProfileSummary {
  /** Wall time of the span summarised, and the part of it the main thread was busy. */
  wallMs: number;
  busyMs: number;
  /** Requests answered while profiled: busy time per request is the CPU the door costs on the main thread. */
  requests: number;
  busyMsPerRequest: number | null;
  byOwner: ProfileShare[];
  topFunctions: ProfileShare[];
}

/** Who a call frame belongs to: a package, a layer of the service, a part of Node, or V8 itself. */
export function ownerOf(url: string, functionName: string): string {
  if (!url) {
    if (functionName === '(garbage collector)') return 'V8: garbage collector';
    if (functionName === '(idle)') return '(idle)';
    if (functionName === '(program)') return 'V8: program (compiler, runtime)';
    return `V8: ${functionName || 'native'}`;
  }
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return `package: ${pkg[1]}`;
  const internal = /^node:(?:internal\/)?([^/]+)/.exec(url);
  if (internal) return `node: ${internal[1]}`;
  const service = /\/(src|bench)\/((?:[^/]+\/)?)/.exec(url);
  if (service) return `service: ${service[1]}/${service[2]?.replace(/\/$/, '') || '(top)'}`;
  return `other: ${url.split('/').slice(-2).join('/')}`;
}

const round = (value: number) => Math.round(value * 10) / 10;

/**
 * Summarises a .cpuprofile file over the span [fromMs, toMs) after the profile's start (the process's
 * start, give or take its loading: the caller's clock from spawning it); `requests` is how many
 * requests the process answered in that span.
 */
export function summariseProfile(
  path: string,
  requests: number,
  span: { fromMs: number; toMs: number },
  top = 15,
): ProfileSummary {
  const profile = JSON.parse(readFileSync(path, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parentOf = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
  // A native function (a socket's writev, a buffer copy) is charged to the package or service code
  // that called it, through Node's own frames: "package: pg → writev" says more than "writev".
  const ownerOfNode = (node: ProfileNode): string => {
    const { url, functionName } = node.callFrame;
    const own = ownerOf(url, functionName);
    if (url || !own.startsWith('V8: ') || /^\(.*\)$/.test(functionName)) return own;
    for (let up = parentOf.get(node.id); up !== undefined; up = parentOf.get(up)) {
      const caller = byId.get(up)!.callFrame;
      const callerOwner = ownerOf(caller.url, caller.functionName);
      if (callerOwner.startsWith('package: ') || callerOwner.startsWith('service: '))
        return `${callerOwner} → native ${functionName}`;
    }
    return `node → native ${functionName}`;
  };
  // timeDeltas[i] is the time from sample i-1 to sample i: a sample stands for the time until the next.
  const selfUs = new Map<number, number>();
  let at = profile.startTime;
  const from = profile.startTime + span.fromMs * 1000;
  const to = profile.startTime + span.toMs * 1000;
  profile.samples.forEach((id, index) => {
    at += profile.timeDeltas[index] ?? 0;
    const duration = Math.max(0, profile.timeDeltas[index + 1] ?? 0);
    if (at < from || at >= to) return;
    selfUs.set(id, (selfUs.get(id) ?? 0) + duration);
  });
  const owners = new Map<string, number>();
  const functions = new Map<string, number>();
  let busyUs = 0;
  for (const [id, us] of selfUs) {
    const node = byId.get(id)!;
    const frame = node.callFrame;
    const owner = ownerOfNode(node);
    if (owner === '(idle)') continue;
    busyUs += us;
    owners.set(owner, (owners.get(owner) ?? 0) + us);
    const where = frame.url
      ? `${frame.url.replace(/^.*\/(node_modules|src|bench)\//, '$1/')}:${frame.lineNumber + 1}`
      : '';
    const name = `${frame.functionName || '(anonymous)'}${where ? ` ${where}` : ''}`;
    functions.set(name, (functions.get(name) ?? 0) + us);
  }
  const shares = (entries: Map<string, number>, limit: number): ProfileShare[] =>
    [...entries]
      .sort(([, a], [, b]) => b - a)
      .slice(0, limit)
      .map(([name, us]) => ({ name, ms: round(us / 1000), percent: busyUs ? round((us / busyUs) * 100) : 0 }));
  return {
    wallMs: round((Math.min(to, profile.endTime) - from) / 1000),
    busyMs: round(busyUs / 1000),
    requests,
    busyMsPerRequest: requests ? Math.round((busyUs / 1000 / requests) * 1000) / 1000 : null,
    byOwner: shares(owners, 25),
    topFunctions: shares(functions, top),
  };
}
