// Every named database of the tasks environment (data.ms/tasks), declared once.
import { table } from '../engine/store/index.ts';
import type { Batch, Task } from './types.ts';

export const TASKS = table<number, Task>('tasks', 'uint32', 'msgpack-keys', 'maps a task uid to its task record');
export const BATCHES = table<number, Batch>('batches', 'uint32', 'msgpack-keys', 'maps a finished batch uid to its batch record');
/**
 * Maps a bitmap name to the portable roaring bitmap of task uids: `all`, `status:<s>`,
 * `type:<t>`, `index:<uid>`, `canceledBy:<uid>`, `batch:<uid>`.
 */
export const BITMAPS = table<string, Uint8Array>('bitmaps', 'string', 'binary', 'maps a bitmap name to a roaring bitmap of task uids');
export const INDEX_MAPPING = table<string, IndexEntry>('index-mapping', 'string', 'msgpack', 'maps an index uid to the uuid of its directory');
export const META = table<string, unknown>('meta', 'string', 'msgpack', 'maps a name to an instance-wide value (experimental features, ...)');

export interface IndexEntry {
  uuid: string;
}
