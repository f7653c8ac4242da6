// Bytes on disk of a directory tree.
import fs from 'node:fs';
import path from 'node:path';

export interface DiskUsage {
  /** sum of file sizes (st.size): what `du --apparent-size -b` prints */
  apparentBytes: number;
  /** sum of allocated blocks (st.blocks * 512): what `du -B1` prints; smaller for sparse files */
  allocatedBytes: number;
  files: number;
}

export function diskUsage(root: string): DiskUsage {
  const out: DiskUsage = { apparentBytes: 0, allocatedBytes: 0, files: 0 };
  const seen = new Set<string>(); // hard links counted once, like du
  const walk = (p: string): void => {
    let st: fs.Stats;
    try {
      st = fs.lstatSync(p);
    } catch {
      return; // removed while walking
    }
    if (st.isDirectory()) {
      for (const name of fs.readdirSync(p)) walk(path.join(p, name));
      return;
    }
    if (!st.isFile()) return;
    const id = `${st.dev}:${st.ino}`;
    if (seen.has(id)) return;
    seen.add(id);
    out.apparentBytes += st.size;
    out.allocatedBytes += st.blocks * 512;
    out.files++;
  };
  walk(root);
  return out;
}
