// The project's shared folder (datasets, tools) sits beside the repository: `../shared`. A git
// worktree one level deeper (e.g. wt/<name>) finds it at `../../shared`.
import fs from 'node:fs';
import path from 'node:path';

export function sharedDir(repoRoot: string): string {
  const candidates = [path.resolve(repoRoot, '../shared'), path.resolve(repoRoot, '../../shared')];
  return candidates.find((d) => fs.existsSync(path.join(d, 'datasets'))) ?? candidates[0]!;
}
