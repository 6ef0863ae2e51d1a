/** Whether a process id names a live process (signal 0 checks without sending anything): for tests that nothing was left running. */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
