/**
 * Self time of a V8 CPU profile (`node --cpu-prof`) of an unminified esbuild bundle, by where the code comes from:
 * our code (lib/, handlers/, scripts/), each package of node_modules, node's own modules (`node:`), garbage
 * collection, V8 outside JavaScript (`(program)`) and idle. The bundle's `// path` comments (esbuild writes one where
 * each module starts) map a line of the bundle to its module. A built-in without a script of its own (JSON.stringify,
 * a Buffer method) counts for the code that called it, and is named with it. Pure: text in, figures out.
 */

interface CallFrame {
  readonly functionName: string;
  readonly url: string;
  readonly lineNumber: number;
}

interface ProfileNode {
  readonly id: number;
  readonly callFrame: CallFrame;
  readonly children?: readonly number[];
}

export interface CpuProfile {
  readonly nodes: readonly ProfileNode[];
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

export interface Share {
  readonly name: string;
  /** Milliseconds of self time. */
  readonly ms: number;
}

export interface ProfileSummary {
  readonly totalMs: number;
  readonly idleMs: number;
  /** By group, largest first. */
  readonly groups: readonly Share[];
  /** By function (`name group:module`), largest first. */
  readonly functions: readonly Share[];
}

/** `// lib/pipeline.ts`, `// node_modules/postgres/cjs/src/index.js` (behind `../other/` when node_modules is a link). */
const MODULE_COMMENT = /^\/\/ (\S+\.(?:[cm]?js|ts|json))$/;

/** The first line of each module of the bundle, in order. */
export function moduleStarts(bundle: string): { line: number; path: string }[] {
  const starts: { line: number; path: string }[] = [];
  const lines = bundle.split('\n');
  for (let line = 0; line < lines.length; line++) {
    const match = MODULE_COMMENT.exec(lines[line] as string);
    if (match?.[1]) starts.push({ line, path: match[1] });
  }
  return starts;
}

/** The group of a module: `ours`, or its package's name. */
export function groupOf(modulePath: string): string {
  const inPackage = /(?:^|\/)node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(modulePath);
  return inPackage?.[1] ?? 'ours';
}

function moduleAt(starts: readonly { line: number; path: string }[], line: number): string {
  let low = 0;
  let high = starts.length - 1;
  let found = '(bundle runtime)';
  while (low <= high) {
    const middle = (low + high) >> 1;
    const start = starts[middle] as { line: number; path: string };
    if (start.line <= line) {
      found = start.path;
      low = middle + 1;
    } else high = middle - 1;
  }
  return found;
}

/** Where a frame's code comes from: [group, module]; undefined for a built-in without a script. */
function placeOf(frame: CallFrame, bundleUrl: string, starts: readonly { line: number; path: string }[]) {
  if (frame.url === '') {
    if (frame.functionName === '(garbage collector)') return ['GC', 'GC'] as const;
    if (frame.functionName === '(program)' || frame.functionName === '(idle)' || frame.functionName === '(root)')
      return [frame.functionName, frame.functionName] as const;
    return undefined;
  }
  if (frame.url.startsWith('node:')) return ['node internals', frame.url] as const;
  if (frame.url === bundleUrl || frame.url.endsWith(bundleUrl)) {
    const module = moduleAt(starts, frame.lineNumber);
    return [groupOf(module), module] as const;
  }
  return ['other scripts', frame.url] as const;
}

const largestFirst = (totals: Map<string, number>): Share[] =>
  [...totals].map(([name, ms]) => ({ name, ms })).sort((a, b) => b.ms - a.ms);

/** Milliseconds of self time by node id. */
function selfTimes(profile: CpuProfile): Map<number, number> {
  const self = new Map<number, number>();
  profile.samples.forEach((id, at) => {
    self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[at] ?? 0) / 1000);
  });
  return self;
}

export function summarizeProfile(profile: CpuProfile, bundle: string, bundleUrl: string): ProfileSummary {
  const starts = moduleStarts(bundle);
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parentOf = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
  const frameOf = (id: number) => (byId.get(id) as ProfileNode).callFrame;
  /** A built-in counts for its nearest caller with a script. */
  const placeFor = (id: number) => {
    let owner: number | undefined = id;
    while (owner !== undefined) {
      const place = placeOf(frameOf(owner), bundleUrl, starts);
      if (place) return place;
      owner = parentOf.get(owner);
    }
    return ['(native)', '(native)'] as const;
  };
  const groups = new Map<string, number>();
  const functions = new Map<string, number>();
  let totalMs = 0;
  for (const [id, ms] of selfTimes(profile)) {
    totalMs += ms;
    const frame = frameOf(id);
    const [group, module] = placeFor(id);
    const name = `${frame.functionName || '(anonymous)'}${frame.url === '' && group !== module ? ' [built-in]' : ''}  ${module}`;
    groups.set(group, (groups.get(group) ?? 0) + ms);
    functions.set(name, (functions.get(name) ?? 0) + ms);
  }
  return {
    totalMs,
    idleMs: groups.get('(idle)') ?? 0,
    groups: largestFirst(groups),
    functions: largestFirst(functions),
  };
}

/** The summary as lines: microseconds per request (of `requests` answered) and shares of the busy (non-idle) time. */
export function formatSummary(summary: ProfileSummary, top: number, requests: number): string[] {
  const busy = summary.totalMs - summary.idleMs;
  const perRequest = (ms: number) => `${((1000 * ms) / requests).toFixed(1).padStart(6)} µs/req`;
  const percent = (ms: number) => `${((100 * ms) / busy).toFixed(1).padStart(5)}%`;
  const line = ({ name, ms }: Share) => `  ${perRequest(ms)} ${percent(ms)}  ${name}`;
  return [
    `profiled ${(summary.totalMs / 1000).toFixed(1)} s, idle ${(summary.idleMs / 1000).toFixed(1)} s, ${requests} requests; ` +
      `busy ${perRequest(busy).trim()}:`,
    'by group:',
    ...summary.groups.filter((g) => g.name !== '(idle)' && g.ms >= 0.5).map(line),
    `top ${top} functions by self time:`,
    ...summary.functions
      .filter((f) => !f.name.startsWith('(idle)'))
      .slice(0, top)
      .map(line),
  ];
}
