import { Worker, type WorkerOptions } from "node:worker_threads";

/**
 * A worker thread running the module at `relative` to this one (give its `.ts` name):
 * the compiled JavaScript when this module is compiled, else the TypeScript source
 * through tsx, as bin/cpb.js loads the server (loader hooks are not inherited).
 */
export function workerRunning(relative: string, options: WorkerOptions): Worker {
  if (!import.meta.url.endsWith(".ts"))
    return new Worker(new URL(relative.replace(/\.ts$/, ".js"), import.meta.url), options);
  const body = new URL(relative, import.meta.url);
  const tsx = import.meta.resolve("tsx/esm/api");
  const bootstrap = `import(${JSON.stringify(tsx)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(body.href)}); });`;
  return new Worker(bootstrap, { ...options, eval: true });
}
