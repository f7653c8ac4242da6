// The contract of the side-by-side workloads (`side-*`, `growth`): what to load and what to ask,
// the same for every server. The runner (run-side.ts) starts each server in turn and hands it the
// spec; the driver (driver.ts) measures it.
import type { SearchBody } from '../lib/filter-bench.ts';

export interface SideIndex {
  uid: string;
  primaryKey: string;
  /** the settings object sent with PATCH /indexes/{uid}/settings before any document */
  settings: Record<string, unknown>;
  /** distinct documents the payloads hold (checked against numberOfDocuments) */
  documents: number;
  /** NDJSON payloads, POSTed one after another without waiting; built before the clock starts */
  payloads(): Buffer[];
}

export interface SideSet {
  /** figure prefix */
  name: string;
  description: string;
  /** uid of the index searched */
  index: string;
  /** the search bodies, each sent once in the 1-client pass (its top 10 compared across servers) */
  bodies: SearchBody[];
}

export interface SideSpec {
  /** the run's label within its workload ("" for a dataset; the size for growth, e.g. "10k") */
  label: string;
  indexes: SideIndex[];
  sets: SideSet[];
  /**
   * After the search passes: the set's index is ingested again, into a second index with the same
   * settings, while one client sends the set's bodies to the first one in a loop (search latency
   * while indexing, against the idle pass).
   */
  duringIngest?: { set: string };
}

export interface SideOptions {
  datasetsDir: string;
  /** growth: the sizes to measure */
  sizes: number[];
}

/** What one server did with one spec. */
export interface EngineRun {
  engine: string;
  /** figures in the order they were measured (name relative to the engine) */
  figures: Array<{ name: string; value: number; unit: string }>;
  /** set name -> the top-10 ids of each body, in order */
  top10: Map<string, string[][]>;
  error?: string;
}

export interface SpecRun {
  spec: SideSpec;
  runs: EngineRun[];
}

export interface SideWorkload {
  name: string;
  description: string;
  /** dataset folder under shared/datasets (or a description of the generated data) */
  dataset: string;
  /** one spec per measured configuration: one for a dataset, one per size for growth */
  specs(opts: SideOptions): SideSpec[];
  /** figures and lines printed after every spec ran (growth: the curve over sizes, the extrapolation) */
  summarize?(runs: readonly SpecRun[]): { lines: string[]; figures: Array<{ name: string; value: number; unit: string }> };
}
