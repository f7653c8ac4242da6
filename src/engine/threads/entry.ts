// Worker entry points next to the module that starts them, in the form that module runs in:
// `.ts` from source (tests, tsx), `.js` once compiled to dist/.
export const WORKER_BOOT = new URL('./worker-boot.mjs', import.meta.url);

/** URL of a sibling module of `base` named `name` (without extension). */
export function siblingModule(name: string, base: string): string {
  return new URL(`./${name}${base.endsWith('.ts') ? '.ts' : '.js'}`, base).href;
}
