/** The tunables of @parley/azure, in one place. */

/** Default `connectTimeoutMs` of an Azure realtime connection. */
export const DEFAULT_CONNECT_TIMEOUT_MS = 30_000;
/** Default `closeTimeoutMs` of an Azure realtime connection. */
export const DEFAULT_CLOSE_TIMEOUT_MS = 5_000;
/** How long the HTTP probe of a refused upgrade's status may take. */
export const PROBE_TIMEOUT_MS = 5_000;
