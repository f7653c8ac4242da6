// Dumps in Meilisearch's V6 format: the archive layout, the line formats of tasks, batches and keys,
// the writer and the reader. Applying a dump to a database is the job of src/tasks and src/instance.
export { DumpError, formatDate, parseDate } from './dates.ts';
export { DumpWriter, LineWriter, type DumpIndexMetadata, type DumpMetadata } from './writer.ts';
export { packDirectory, removeStaleStaging, unpackArchive } from './archive.ts';
export { DumpReader, readLines, type DumpIndex } from './reader.ts';
export { taskFromDump, taskToDump, type DumpTaskContext } from './tasks.ts';
export { batchFromDump, batchToDump } from './batches.ts';
export { keyFromDump, keyToDump } from './keys.ts';
export { dumpUid } from './name.ts';
export { settingsFromDump } from './settings.ts';
