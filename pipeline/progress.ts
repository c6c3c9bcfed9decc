/** Progress lines on stderr for long stages: "[ingest] 314/628 (50%) 12.3s". */
export function progress(stage: string, total: number) {
  const started = Date.now();
  let done = 0;
  let lastPrinted = 0;
  const print = () => {
    const pct = total ? Math.floor((done / total) * 100) : 100;
    process.stderr.write(`[${stage}] ${done}/${total} (${pct}%) ${((Date.now() - started) / 1000).toFixed(1)}s\n`);
  };
  return {
    tick(n = 1) {
      done += n;
      if (Date.now() - lastPrinted > 2000 || done === total) {
        lastPrinted = Date.now();
        print();
      }
    },
  };
}

const processStart = Date.now();

/** One line per build step, with the seconds since the process started, so a slow step shows. */
export function step(message: string) {
  process.stderr.write(`${message} (${((Date.now() - processStart) / 1000).toFixed(1)}s)\n`);
}
