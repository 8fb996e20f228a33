/** Every section of `npm run bench`, in the order they run (before `daemon`, whose 200,000 events the projector works through for minutes after). */
export const BENCH_SECTIONS = ['claims', 'peer', 'timeline', 'scaling', 'live', 'dispatch', 'cancel', 'replay', 'daemon', 'repositories'] as const;
export type BenchSection = (typeof BENCH_SECTIONS)[number];

const isSection = (name: string): name is BenchSection => (BENCH_SECTIONS as readonly string[]).includes(name);

/**
 * The sections `--only=a,b` asks for, in run order (every one without the flag). An unknown name
 * is an error naming the accepted ones, not a silently shorter run.
 */
export function selectSections(argumentsGiven: readonly string[]): BenchSection[] {
  const only = argumentsGiven.filter((argument) => argument.startsWith('--only=')).at(-1);
  if (only === undefined) return [...BENCH_SECTIONS];
  const names = only
    .slice('--only='.length)
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  const unknown = names.filter((name) => !isSection(name));
  if (unknown.length > 0 || names.length === 0) {
    throw new Error(`--only: unknown section(s) ${unknown.join(', ') || '(none given)'}; accepted: ${BENCH_SECTIONS.join(', ')}`);
  }
  return BENCH_SECTIONS.filter((section) => names.includes(section));
}
