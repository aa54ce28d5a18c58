// Choices /settings offers for settings kept as numbers or codes.

/** The HTTP idle timeouts offered, by label. */
export const HTTP_IDLE_TIMEOUT_CHOICES = [
  { label: "30 sec", timeoutMs: 30_000 },
  { label: "1 min", timeoutMs: 60_000 },
  { label: "2 min", timeoutMs: 120_000 },
  { label: "5 min", timeoutMs: 300_000 },
  { label: "disabled", timeoutMs: 0 },
];

/** A timeout as its choice's label, or in seconds when it is none of them. */
export function formatHttpIdleTimeoutMs(timeoutMs) {
  return HTTP_IDLE_TIMEOUT_CHOICES.find((choice) => choice.timeoutMs === timeoutMs)?.label ?? `${timeoutMs / 1000} sec`;
}

export const CACHE_WARMING_MODES = ["off", "streaming", "idle"];

/** pi warns about Anthropic extra usage unless told not to. */
export const DEFAULT_WARNINGS = { anthropicExtraUsage: true };

export const SYSTEM_THEME_NAME = "system";

/** "light/dark" as its two theme names, or undefined for anything else. */
export function parseAutoThemeSetting(themeSetting) {
  if (!themeSetting) return undefined;
  const parts = themeSetting.split("/");
  if (parts.length !== 2) return undefined;
  const [lightTheme, darkTheme] = parts.map((part) => part.trim());
  return lightTheme && darkTheme ? { lightTheme, darkTheme } : undefined;
}
