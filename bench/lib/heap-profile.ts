// V8's sampling heap profile summed per area (package or folder) and per function, per signal.
import path from 'node:path';

export interface ProfileNode {
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children: ProfileNode[];
}

/** Top functions (name, file:line) by self size, and top packages/folders, from a sampling profile. */
export function summarize(head: ProfileNode, signals: number): string {
  const bySite = new Map<string, number>();
  const byArea = new Map<string, number>();
  let total = 0;
  const walk = (node: ProfileNode) => {
    const { functionName, url, lineNumber } = node.callFrame;
    const file = url.replace(/^file:\/\//, '').replace(`${process.cwd()}/`, '');
    const site = `${functionName || '(anonymous)'} ${file}:${lineNumber + 1}`;
    const area = file.includes('node_modules/')
      ? (file
          .split('node_modules/')
          .at(-1)
          ?.split('/')
          .slice(0, file.includes('node_modules/@') ? 2 : 1)
          .join('/') ?? file)
      : file === ''
        ? '(native / V8)'
        : file.startsWith('node:')
          ? file
          : path.dirname(file);
    bySite.set(site, (bySite.get(site) ?? 0) + node.selfSize);
    byArea.set(area, (byArea.get(area) ?? 0) + node.selfSize);
    total += node.selfSize;
    for (const child of node.children) walk(child);
  };
  walk(head);
  const top = (m: Map<string, number>, n: number) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(
        ([k, v]) =>
          `  ${((100 * v) / total).toFixed(1).padStart(5)} %  ${(v / signals / 1024).toFixed(2).padStart(7)} KB/signal  ${k}`,
      )
      .join('\n');
  return `sampled ${(total / signals / 1024).toFixed(1)} KB/signal\nby area:\n${top(byArea, 25)}\nby function:\n${top(bySite, 40)}`;
}
