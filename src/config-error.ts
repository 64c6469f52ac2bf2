/** A bad setting of the environment: start-up stops with its message and exit status 2. */
export class ConfigError extends Error {}
