import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

/** Whether this machine has the /proc files tcpListeners() reads (Linux). */
export const canListListeners = (): boolean => {
  try {
    readFileSync('/proc/self/net/tcp');
    return true;
  } catch {
    return false;
  }
};

/** The TCP ports process `pid` listens on (IPv4 and IPv6), from its file descriptors and /proc/<pid>/net/tcp*. */
export function tcpListeners(pid: number): number[] {
  const inodes = new Set<string>();
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      const match = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
      if (match?.[1]) inodes.add(match[1]);
    } catch {
      // Closed while we looked.
    }
  }
  const ports = new Set<number>();
  for (const table of ['tcp', 'tcp6']) {
    let text = '';
    try {
      text = readFileSync(`/proc/${pid}/net/${table}`, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      // local_address is ADDR:PORT in hex; state 0A is LISTEN; field 9 is the socket's inode.
      const [, local, , state] = fields;
      const inode = fields[9];
      if (state !== '0A' || !local || !inode || !inodes.has(inode)) continue;
      ports.add(Number.parseInt(local.split(':')[1] ?? '', 16));
    }
  }
  return [...ports].sort((a, b) => a - b);
}
