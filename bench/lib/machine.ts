// The machine a run came from, and how busy it was (the figures mean little without it).
import fs from 'node:fs';
import os from 'node:os';

export interface Machine {
  cores: number;
  cpu: string;
  ramGb: number;
  node: string;
  os: string;
}

export function machine(): Machine {
  return {
    cores: os.cpus().length,
    cpu: os.cpus()[0]?.model.trim() ?? 'unknown',
    ramGb: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
    os: `${os.type()} ${os.release()}`,
  };
}

/** /proc/loadavg's 1, 5 and 15 minute averages. */
export function loadAverage(): [number, number, number] {
  const [a, b, c] = fs.readFileSync('/proc/loadavg', 'utf8').split(' ').map(Number);
  return [a ?? 0, b ?? 0, c ?? 0];
}
