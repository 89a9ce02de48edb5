// What the bench prints, and how long each of its phases took (results.json's phasesSeconds, in the
// order they ran).
export const log = (message: string) => process.stdout.write(`${message}\n`);

const started = Date.now();
export const phases: Record<string, number> = {};

export async function phase<T>(name: string, work: () => Promise<T>): Promise<T> {
  const at = Date.now();
  try {
    return await work();
  } finally {
    phases[name] = Math.round((Date.now() - at) / 100) / 10;
  }
}

/** The whole run so far, as the last phase. */
export function endPhases(): void {
  phases.total = Math.round((Date.now() - started) / 100) / 10;
}

export const round = (value: number, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits;

export function mb(bytes: number | null): string {
  return bytes === null ? '?' : (bytes / 1024 / 1024).toFixed(1);
}
